//===- SessionTest.cpp - Unit tests of sessions on hand-written models ----===//

#include "FakeModels.h"
#include "TestUtils.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace onnxc::test;

namespace {
std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + static_cast<float>(i);
  return v;
}

/// Marks output slots so that a failed run is seen not to touch them.
onnxc_tensor *const untouched = reinterpret_cast<onnxc_tensor *>(0x1234);
} // namespace

TEST_CASE("session runs the add model with a dynamic first dim", "[session]") {
  for (int threads : {1, 2, 4}) {
    onnxc_session *session = onnxc_session_create(&fakeAddModel, threads);
    REQUIRE(session);
    CHECK(onnxc_session_model(session) == &fakeAddModel);
    CHECK(onnxc_threadpool_size(onnxc_session_threadpool(session)) == threads);
    for (int64_t n : {1, 2, 5, 0, 33}) {
      INFO(threads << " threads, N = " << n);
      size_t count = static_cast<size_t>(n) * 3;
      onnxc_tensor *inputs[2] = {makeFloatTensor({n, 3}, iota(count, 0)),
                                 makeFloatTensor({n, 3}, iota(count, 100))};
      onnxc_tensor *outputs[1] = {nullptr};
      REQUIRE(onnxc_session_run(session, inputs, 2, outputs) == ONNXC_OK);
      REQUIRE(outputs[0]);
      CHECK(fakeAddLastPool == onnxc_session_threadpool(session));
      CHECK(onnxc_current_threadpool() == nullptr);
      CHECK(std::string(onnxc_tensor_name(outputs[0])) == "sum");
      CHECK(onnxc_tensor_dtype(outputs[0]) == ONNXC_DTYPE_FLOAT);
      CHECK(dimsOf(outputs[0]) == std::vector<int64_t>{n, 3});
      std::vector<float> expected(count);
      for (size_t i = 0; i < count; ++i)
        expected[i] = 100.0f + 2.0f * static_cast<float>(i);
      CHECK(floatValues(outputs[0]) == expected);
      onnxc_tensor_free(outputs[0]);
      onnxc_tensor_free(inputs[0]);
      onnxc_tensor_free(inputs[1]);
    }
    onnxc_session_free(session);
  }
}

TEST_CASE("session copies strided and offset outputs", "[session]") {
  onnxc_session *session = onnxc_session_create(&fakeStridedModel, 1);
  REQUIRE(session);
  onnxc_tensor *x = makeFloatTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  onnxc_tensor *outputs[2] = {nullptr, nullptr};
  REQUIRE(onnxc_session_run(session, &x, 1, outputs) == ONNXC_OK);
  CHECK(std::string(onnxc_tensor_name(outputs[0])) == "xt");
  CHECK(dimsOf(outputs[0]) == std::vector<int64_t>{3, 2});
  CHECK(floatValues(outputs[0]) == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(std::string(onnxc_tensor_name(outputs[1])) == "x2");
  CHECK(dimsOf(outputs[1]) == std::vector<int64_t>{2, 3});
  CHECK(floatValues(outputs[1]) == std::vector<float>{2, 4, 6, 8, 10, 12});
  onnxc_tensor_free(outputs[0]);
  onnxc_tensor_free(outputs[1]);
  onnxc_tensor_free(x);
  onnxc_session_free(session);
}

TEST_CASE("session copies outputs that alias inputs or each other",
          "[session]") {
  onnxc_session *session = onnxc_session_create(&fakeAliasModel, 1);
  REQUIRE(session);
  int64_t values[4] = {1, -2, 3, 40};
  int64_t dims[1] = {4};
  onnxc_tensor *x = onnxc_tensor_wrap(ONNXC_DTYPE_INT64, 1, dims, values);
  REQUIRE(x);
  onnxc_tensor *outputs[3] = {nullptr, nullptr, nullptr};
  REQUIRE(onnxc_session_run(session, &x, 1, outputs) == ONNXC_OK);
  CHECK(onnxc_tensor_data(outputs[0]) != values);
  CHECK(onnxc_tensor_data(outputs[1]) != onnxc_tensor_data(outputs[2]));
  auto ints = [](const onnxc_tensor *t) {
    const int64_t *p = static_cast<const int64_t *>(onnxc_tensor_data(t));
    return std::vector<int64_t>(p, p + onnxc_tensor_numel(t));
  };
  // Freeing the outputs must neither free the input nor free twice.
  for (onnxc_tensor *out : outputs)
    onnxc_tensor_free(out);
  REQUIRE(onnxc_session_run(session, &x, 1, outputs) == ONNXC_OK);
  CHECK(ints(outputs[0]) == std::vector<int64_t>{1, -2, 3, 40});
  CHECK(ints(outputs[1]) == std::vector<int64_t>{2, -4, 6, 80});
  CHECK(ints(outputs[2]) == std::vector<int64_t>{2, -4, 6, 80});
  CHECK(std::string(onnxc_tensor_name(outputs[2])) == "twice2");
  for (onnxc_tensor *out : outputs)
    onnxc_tensor_free(out);
  CHECK(values[3] == 40);
  onnxc_tensor_free(x);
  onnxc_session_free(session);
}

TEST_CASE("session_run validates its inputs", "[session]") {
  onnxc_session *session = onnxc_session_create(&fakeAddModel, 1);
  REQUIRE(session);
  onnxc_tensor *outputs[1] = {untouched};
  auto expectError = [&](std::vector<onnxc_tensor *> inputs,
                         const std::string &message) {
    INFO(message);
    outputs[0] = untouched;
    CHECK(onnxc_session_run(session, inputs.data(),
                            static_cast<int32_t>(inputs.size()),
                            outputs) == ONNXC_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(onnxc_last_error()) == message);
    CHECK(outputs[0] == untouched);
    for (onnxc_tensor *t : inputs)
      onnxc_tensor_free(t);
  };

  expectError({makeFloatTensor({2, 3}, {})}, "expected 2 inputs but got 1");
  int64_t dims[2] = {2, 3};
  expectError({onnxc_tensor_create(ONNXC_DTYPE_INT64, 2, dims),
               makeFloatTensor({2, 3}, {})},
              "input 0 'a': expected dtype float32 but got int64");
  expectError({makeFloatTensor({2, 3}, {}), makeFloatTensor({6}, {})},
              "input 1 'b': expected rank 2 but got 1 (expected shape [N,3] "
              "but got [6])");
  expectError({makeFloatTensor({2, 4}, {}), makeFloatTensor({2, 3}, {})},
              "input 0 'a': expected shape [N,3] but got [2,4]");
  expectError({makeFloatTensor({2, 3}, {}), makeFloatTensor({5, 3}, {})},
              "input 1 'b': dim 0 'N' is 5 but input 0 'a' has 'N' = 2 "
              "(expected shape [N,3] but got [5,3])");
  expectError({makeFloatTensor({2, 3}, {}), nullptr}, "input 1 'b' is null");
  CHECK(onnxc_session_run(nullptr, nullptr, 0, outputs) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  onnxc_session_free(session);
}

TEST_CASE("session_run checks dim_params within an input, not the outputs'",
          "[session]") {
  onnxc_session *session = onnxc_session_create(&fakeWrongDiagModel, 1);
  REQUIRE(session);
  onnxc_tensor *outputs[1] = {untouched};
  onnxc_tensor *notSquare = makeFloatTensor({2, 3}, iota(6, 0));
  CHECK(onnxc_session_run(session, &notSquare, 1, outputs) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(onnxc_last_error()) ==
        "input 0 'm': dim 1 'N' is 3 but input 0 'm' has 'N' = 2 (expected "
        "shape [N,N] but got [2,3])");
  CHECK(outputs[0] == untouched);
  // An output dim_param is the model's claim: the computed size stands, as
  // in ONNX Runtime (models declare outputs wrongly).
  onnxc_tensor *square = makeFloatTensor({2, 2}, iota(4, 0));
  REQUIRE(onnxc_session_run(session, &square, 1, outputs) == ONNXC_OK);
  REQUIRE(outputs[0] != untouched);
  CHECK(onnxc_tensor_rank(outputs[0]) == 1);
  CHECK(onnxc_tensor_dims(outputs[0])[0] == 3);
  onnxc_tensor_free(outputs[0]);
  onnxc_tensor_free(notSquare);
  onnxc_tensor_free(square);
  onnxc_session_free(session);
}

TEST_CASE("session_create rejects bad model descriptors", "[session]") {
  CHECK(onnxc_session_create(nullptr, 1) == nullptr);
  CHECK(std::string(onnxc_last_error()) == "model is null");

  onnxc_model_desc future = fakeAddModel;
  future.abi_version = 3;
  CHECK(onnxc_session_create(&future, 1) == nullptr);
  CHECK(std::string(onnxc_last_error()) ==
        "model abi_version 3 is not supported (expected 2)");
  onnxc_model_desc old = fakeAddModel;
  old.abi_version = 1;
  CHECK(onnxc_session_create(&old, 1) == nullptr);
  CHECK(onnxc_last_status() == ONNXC_ERROR_UNSUPPORTED);
  CHECK(onnxc_last_status() == ONNXC_ERROR_UNSUPPORTED);

  onnxc_model_desc noEntry = fakeAddModel;
  noEntry.entry = nullptr;
  CHECK(onnxc_session_create(&noEntry, 1) == nullptr);
  CHECK(std::string(onnxc_last_error()) == "model descriptor is incomplete");

  int64_t dims[1] = {2};
  onnxc_tensor_sig complex[1] = {{"c", 14, 1, dims, nullptr, 0, 0, 0}};
  onnxc_model_desc complexModel = fakeAddModel;
  complexModel.num_inputs = 1;
  complexModel.inputs = complex;
  CHECK(onnxc_session_create(&complexModel, 1) == nullptr);
  CHECK(std::string(onnxc_last_error()) ==
        "model input 0 'c' has unsupported dtype unknown");
  onnxc_session_free(nullptr);
}
