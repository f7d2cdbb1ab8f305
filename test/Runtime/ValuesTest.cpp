//===- ValuesTest.cpp - Unit tests of sequences, maps and optionals -------===//

#include "FakeModels.h"
#include "TestUtils.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace onnxc::test;

namespace {
/// A string tensor of `values`, 1-D.
onnxc_tensor *makeStrings(const std::vector<const char *> &values) {
  int64_t n = static_cast<int64_t>(values.size());
  onnxc_tensor *t = onnxc_tensor_create_strings(1, &n, values.data(), nullptr);
  REQUIRE(t);
  return t;
}

onnxc_tensor *makeInt64s(const std::vector<int64_t> &values) {
  int64_t n = static_cast<int64_t>(values.size());
  onnxc_tensor *t = onnxc_tensor_create(ONNXC_DTYPE_INT64, 1, &n);
  REQUIRE(t);
  std::memcpy(onnxc_tensor_data(t), values.data(), values.size() * 8);
  return t;
}

std::vector<int64_t> int64Values(const onnxc_tensor *t) {
  const auto *data = static_cast<const int64_t *>(onnxc_tensor_data(t));
  return std::vector<int64_t>(data, data + onnxc_tensor_numel(t));
}

std::vector<std::string> stringValues(const onnxc_tensor *t) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < onnxc_tensor_numel(t); ++i) {
    size_t size;
    const char *s = onnxc_tensor_string(t, i, &size);
    out.emplace_back(s, size);
  }
  return out;
}

std::string fixture(const std::string &name) {
  return std::string(ONNXC_RUNTIME_TEST_INPUTS) + "/values/" + name;
}

/// The handle of a value object, as compiled models see it.
int64_t h(const onnxc_tensor *value) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(value));
}
const onnxc_tensor *v(int64_t handle) {
  return reinterpret_cast<const onnxc_tensor *>(static_cast<intptr_t>(handle));
}

/// A memref descriptor over `data`: allocated, aligned, offset, sizes,
/// strides.
std::vector<int64_t> desc(void *data, int64_t offset,
                          const std::vector<int64_t> &sizes,
                          const std::vector<int64_t> &strides) {
  std::vector<int64_t> words = {h(static_cast<onnxc_tensor *>(data)),
                                h(static_cast<onnxc_tensor *>(data)), offset};
  words.insert(words.end(), sizes.begin(), sizes.end());
  words.insert(words.end(), strides.begin(), strides.end());
  return words;
}

int64_t floatValue(const std::vector<int64_t> &dims,
                   const std::vector<float> &values) {
  std::vector<float> copy = values;
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;)
    strides[i - 1] = strides[i] * dims[i];
  std::vector<int64_t> d = desc(copy.data(), 0, dims, strides);
  return onnxc_value_from_memref(ONNXC_DTYPE_FLOAT,
                                 static_cast<int64_t>(dims.size()), d.data());
}
} // namespace

TEST_CASE("sequences: create, append, at, free", "[values]") {
  onnxc_tensor *seq = onnxc_sequence_create(ONNXC_DTYPE_FLOAT);
  REQUIRE(seq);
  CHECK(onnxc_value_kind(seq) == ONNXC_KIND_SEQUENCE);
  CHECK(onnxc_sequence_length(seq) == 0);
  REQUIRE(onnxc_sequence_append(seq, makeFloatTensor({2}, {1, 2})) == ONNXC_OK);
  REQUIRE(onnxc_sequence_append(seq, makeFloatTensor({1, 3}, {3, 4, 5})) ==
          ONNXC_OK);
  CHECK(onnxc_sequence_length(seq) == 2);
  CHECK(floatValues(onnxc_sequence_at(seq, 1)) == std::vector<float>{3, 4, 5});
  CHECK(onnxc_sequence_at(seq, 2) == nullptr);
  CHECK(onnxc_tensor_dtype(seq) == ONNXC_DTYPE_FLOAT);
  CHECK(onnxc_tensor_rank(seq) == 0);
  CHECK(onnxc_tensor_numel(seq) == 0);
  CHECK(onnxc_tensor_data(seq) == nullptr);

  onnxc_tensor *ints = makeInt64s({1});
  CHECK(onnxc_sequence_append(seq, ints) == ONNXC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(onnxc_last_error()) ==
        "cannot append a int64 tensor to a sequence of float32");
  onnxc_tensor *inner = onnxc_sequence_create(ONNXC_DTYPE_FLOAT);
  CHECK(onnxc_sequence_append(seq, inner) == ONNXC_ERROR_UNSUPPORTED);
  onnxc_tensor_free(inner);
  onnxc_tensor_free(ints);
  CHECK(onnxc_sequence_length(nullptr) == -1);
  onnxc_tensor_free(seq);
}

TEST_CASE("maps and none values", "[values]") {
  onnxc_tensor *map =
      onnxc_map_create(makeStrings({"a", "b"}), makeFloatTensor({2}, {1, 2}));
  REQUIRE(map);
  CHECK(onnxc_value_kind(map) == ONNXC_KIND_MAP);
  CHECK(onnxc_tensor_dtype(map) == ONNXC_DTYPE_FLOAT);
  CHECK(stringValues(onnxc_map_keys(map)) ==
        std::vector<std::string>{"a", "b"});
  CHECK(floatValues(onnxc_map_values(map)) == std::vector<float>{1, 2});
  onnxc_tensor_free(map);

  onnxc_tensor *keys = makeInt64s({1, 2, 3});
  onnxc_tensor *values = makeFloatTensor({2}, {1, 2});
  CHECK(onnxc_map_create(keys, values) == nullptr);
  CHECK(onnxc_last_status() == ONNXC_ERROR_INVALID_ARGUMENT);
  onnxc_tensor_free(keys);
  onnxc_tensor_free(values);

  onnxc_tensor *none = onnxc_none_create();
  CHECK(onnxc_value_kind(none) == ONNXC_KIND_NONE);
  onnxc_tensor_free(none);
}

TEST_CASE(".pb values written by Python's onnx read back and write the same "
          "bytes",
          "[values][pb]") {
  TempDir dir;
  struct File {
    const char *name;
    int32_t kind;
  } files[] = {{"seq_float.pb", ONNXC_KIND_SEQUENCE},
               {"seq_string.pb", ONNXC_KIND_SEQUENCE},
               {"seq_empty.pb", ONNXC_KIND_SEQUENCE},
               {"seq_map.pb", ONNXC_KIND_SEQUENCE},
               {"map_int64.pb", ONNXC_KIND_MAP},
               {"map_string.pb", ONNXC_KIND_MAP},
               {"opt_none.pb", ONNXC_KIND_OPTIONAL},
               {"opt_tensor.pb", ONNXC_KIND_OPTIONAL},
               {"opt_seq.pb", ONNXC_KIND_OPTIONAL}};
  for (const File &f : files) {
    INFO(f.name);
    onnxc_tensor *value = onnxc_value_read_pb(fixture(f.name).c_str(), f.kind);
    INFO(onnxc_last_error());
    REQUIRE(value);
    std::string out = dir.file(f.name);
    REQUIRE(onnxc_value_write_pb(value, out.c_str(), f.kind) == ONNXC_OK);
    CHECK(readBytes(out) == readBytes(fixture(f.name)));
    onnxc_tensor_free(value);
  }

  onnxc_tensor *seq =
      onnxc_value_read_pb(fixture("seq_float.pb").c_str(), ONNXC_KIND_SEQUENCE);
  REQUIRE(onnxc_sequence_length(seq) == 3);
  CHECK(std::string(onnxc_tensor_name(seq)) == "fs");
  CHECK(dimsOf(onnxc_sequence_at(seq, 0)) == std::vector<int64_t>{2, 3});
  CHECK(floatValues(onnxc_sequence_at(seq, 1)) == std::vector<float>{1.5f});
  CHECK(dimsOf(onnxc_sequence_at(seq, 2)) == std::vector<int64_t>{0, 2});
  onnxc_tensor_free(seq);

  seq = onnxc_value_read_pb(fixture("seq_string.pb").c_str(),
                            ONNXC_KIND_SEQUENCE);
  REQUIRE(onnxc_sequence_length(seq) == 2);
  CHECK(stringValues(onnxc_sequence_at(seq, 1)) ==
        std::vector<std::string>{"", "xyz", "q"});
  onnxc_tensor_free(seq);

  onnxc_tensor *map =
      onnxc_value_read_pb(fixture("map_int64.pb").c_str(), ONNXC_KIND_MAP);
  REQUIRE(map);
  CHECK(int64Values(onnxc_map_keys(map)) == std::vector<int64_t>{3, -1});
  CHECK(floatValues(onnxc_map_values(map)) == std::vector<float>{0.25f, 2.0f});
  onnxc_tensor_free(map);

  map = onnxc_value_read_pb(fixture("map_string.pb").c_str(), ONNXC_KIND_MAP);
  REQUIRE(map);
  CHECK(stringValues(onnxc_map_keys(map)) ==
        std::vector<std::string>{"x", "yy"});
  CHECK(int64Values(onnxc_map_values(map)) == std::vector<int64_t>{7, -8});
  onnxc_tensor_free(map);

  seq = onnxc_value_read_pb(fixture("seq_map.pb").c_str(), ONNXC_KIND_SEQUENCE);
  REQUIRE(onnxc_sequence_length(seq) == 2);
  CHECK(onnxc_value_kind(onnxc_sequence_at(seq, 1)) == ONNXC_KIND_MAP);
  onnxc_tensor_free(seq);

  onnxc_tensor *none =
      onnxc_value_read_pb(fixture("opt_none.pb").c_str(), ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_value_kind(none) == ONNXC_KIND_NONE);
  onnxc_tensor_free(none);
  onnxc_tensor *held = onnxc_value_read_pb(fixture("opt_tensor.pb").c_str(),
                                           ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_value_kind(held) == ONNXC_KIND_TENSOR);
  CHECK(dimsOf(held) == std::vector<int64_t>{1, 2});
  onnxc_tensor_free(held);
  held =
      onnxc_value_read_pb(fixture("opt_seq.pb").c_str(), ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_sequence_length(held) == 2);
  onnxc_tensor_free(held);

  // A sequence of sequences is refused.
  std::string nested = std::string("\x10\x03", 2) +
                       lengthDelimited(5, std::string("\x10\x01", 2));
  writeBytes(dir.file("nested.pb"), nested);
  CHECK(onnxc_value_read_pb(dir.file("nested.pb").c_str(),
                            ONNXC_KIND_SEQUENCE) == nullptr);
  CHECK(onnxc_last_status() == ONNXC_ERROR_UNSUPPORTED);
}

TEST_CASE(".pb round trips of values made by the caller", "[values][pb]") {
  TempDir dir;
  onnxc_tensor *seq = onnxc_sequence_create(ONNXC_DTYPE_STRING);
  REQUIRE(onnxc_sequence_append(seq, makeStrings({"hello", ""})) == ONNXC_OK);
  REQUIRE(onnxc_sequence_append(seq, makeStrings({"x"})) == ONNXC_OK);
  std::string path = dir.file("s.pb");
  REQUIRE(onnxc_tensor_write_pb(seq, path.c_str(), nullptr) == ONNXC_OK);
  onnxc_tensor *back = onnxc_value_read_pb(path.c_str(), ONNXC_KIND_SEQUENCE);
  REQUIRE(onnxc_sequence_length(back) == 2);
  CHECK(stringValues(onnxc_sequence_at(back, 0)) ==
        std::vector<std::string>{"hello", ""});
  onnxc_tensor_free(back);

  // As an optional, and a none as an optional.
  REQUIRE(onnxc_value_write_pb(seq, path.c_str(), ONNXC_KIND_OPTIONAL) ==
          ONNXC_OK);
  back = onnxc_value_read_pb(path.c_str(), ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_sequence_length(back) == 2);
  onnxc_tensor_free(back);
  REQUIRE(onnxc_value_write_pb(nullptr, path.c_str(), ONNXC_KIND_OPTIONAL) ==
          ONNXC_OK);
  back = onnxc_value_read_pb(path.c_str(), ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_value_kind(back) == ONNXC_KIND_NONE);
  onnxc_tensor_free(back);
  CHECK(onnxc_value_write_pb(seq, path.c_str(), ONNXC_KIND_MAP) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  onnxc_tensor_free(seq);

  onnxc_tensor *map =
      onnxc_map_create(makeInt64s({5, 6}), makeStrings({"five", "six"}));
  REQUIRE(map);
  REQUIRE(onnxc_value_write_pb(map, path.c_str(), ONNXC_KIND_MAP) == ONNXC_OK);
  back = onnxc_value_read_pb(path.c_str(), ONNXC_KIND_MAP);
  REQUIRE(back);
  CHECK(int64Values(onnxc_map_keys(back)) == std::vector<int64_t>{5, 6});
  CHECK(stringValues(onnxc_map_values(back)) ==
        std::vector<std::string>{"five", "six"});
  onnxc_tensor_free(back);
  onnxc_tensor_free(map);
}

TEST_CASE("session passes sequences as handles and copies them out",
          "[values][session]") {
  onnxc_session *session = onnxc_session_create(&fakeSeqInsertModel, 2);
  REQUIRE(session);
  onnxc_tensor *seq = onnxc_sequence_create(ONNXC_DTYPE_FLOAT);
  REQUIRE(onnxc_sequence_append(seq, makeFloatTensor({2}, {1, 2})) == ONNXC_OK);
  onnxc_tensor *x = makeFloatTensor({3}, {3, 4, 5});
  onnxc_tensor *inputs[2] = {seq, x};
  onnxc_tensor *outputs[2] = {nullptr, nullptr};
  REQUIRE(onnxc_session_run(session, inputs, 2, outputs) == ONNXC_OK);
  REQUIRE(onnxc_sequence_length(outputs[0]) == 2);
  CHECK(std::string(onnxc_tensor_name(outputs[0])) == "appended");
  CHECK(floatValues(onnxc_sequence_at(outputs[0], 0)) ==
        std::vector<float>{1, 2});
  CHECK(floatValues(onnxc_sequence_at(outputs[0], 1)) ==
        std::vector<float>{3, 4, 5});
  CHECK(onnxc_sequence_at(outputs[0], 0) != onnxc_sequence_at(seq, 0));
  REQUIRE(onnxc_sequence_length(outputs[1]) == 1);
  CHECK(outputs[1] != seq);
  onnxc_tensor_free(outputs[0]);
  onnxc_tensor_free(outputs[1]);

  // A tensor where a sequence goes, and items of the wrong rank.
  onnxc_tensor *swapped[2] = {x, x};
  CHECK(onnxc_session_run(session, swapped, 2, outputs) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(onnxc_last_error()) ==
        "input 0 'seq': expected a sequence but got a tensor");
  REQUIRE(onnxc_sequence_append(seq, makeFloatTensor({1, 1}, {9})) == ONNXC_OK);
  CHECK(onnxc_session_run(session, inputs, 2, outputs) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(onnxc_last_error())
            .find("input 0 'seq' item 1: expected "
                  "rank 1 but got 2") == 0);
  onnxc_tensor_free(seq);
  onnxc_tensor_free(x);
  onnxc_session_free(session);
}

TEST_CASE("session passes optionals: none, null and a tensor",
          "[values][session]") {
  onnxc_session *session = onnxc_session_create(&fakeOptionalModel, 1);
  REQUIRE(session);
  onnxc_tensor *out = nullptr;
  onnxc_tensor *none = onnxc_none_create();
  REQUIRE(onnxc_session_run(session, &none, 1, &out) == ONNXC_OK);
  CHECK(onnxc_value_kind(out) == ONNXC_KIND_NONE);
  CHECK(std::string(onnxc_tensor_name(out)) == "opt");
  onnxc_tensor_free(out);
  onnxc_tensor *null = nullptr;
  REQUIRE(onnxc_session_run(session, &null, 1, &out) == ONNXC_OK);
  CHECK(onnxc_value_kind(out) == ONNXC_KIND_NONE);
  onnxc_tensor_free(out);
  onnxc_tensor *x = makeFloatTensor({2, 2}, {1, 2, 3, 4});
  REQUIRE(onnxc_session_run(session, &x, 1, &out) == ONNXC_OK);
  CHECK(out != x);
  CHECK(floatValues(out) == std::vector<float>{1, 2, 3, 4});
  onnxc_tensor_free(out);
  onnxc_tensor *ints = makeInt64s({1});
  CHECK(onnxc_session_run(session, &ints, 1, &out) ==
        ONNXC_ERROR_INVALID_ARGUMENT);
  onnxc_tensor_free(ints);
  onnxc_tensor_free(x);
  onnxc_tensor_free(none);
  onnxc_session_free(session);
}

TEST_CASE("sequence operations of compiled models", "[values][compiled]") {
  int64_t a = floatValue({1}, {1}), b = floatValue({1}, {2}),
          c = floatValue({1}, {3});
  int64_t s = onnxc_seq_empty(ONNXC_DTYPE_FLOAT);
  s = onnxc_seq_insert(s, a, 0, 0);          // [a]
  s = onnxc_seq_insert(s, c, 0, 0);          // [a, c]
  int64_t t = onnxc_seq_insert(s, b, -1, 1); // [a, b, c]
  CHECK(onnxc_seq_length(s) == 2);
  REQUIRE(onnxc_seq_length(t) == 3);
  CHECK(onnxc_seq_at(t, -2) == b);
  CHECK(onnxc_seq_at(t, 2) == c);
  int64_t e = onnxc_seq_erase(t, -3, 1); // [b, c]
  CHECK(onnxc_seq_length(e) == 2);
  CHECK(onnxc_seq_at(e, 0) == b);
  CHECK(onnxc_seq_at(onnxc_seq_erase(t, 0, 0), -1) == b); // [a, b]

  // value_from_memref: a transposed view, and a broadcast (stride 0).
  float grid[6] = {0, 1, 2, 3, 4, 5};
  std::vector<int64_t> d = desc(grid, 0, {3, 2}, {1, 3});
  int64_t tr = onnxc_value_from_memref(ONNXC_DTYPE_FLOAT, 2, d.data());
  CHECK(floatValues(v(tr)) == std::vector<float>{0, 3, 1, 4, 2, 5});
  d = desc(grid, 1, {2, 3}, {0, 1});
  int64_t bc = onnxc_value_from_memref(ONNXC_DTYPE_FLOAT, 2, d.data());
  CHECK(floatValues(v(bc)) == std::vector<float>{1, 2, 3, 1, 2, 3});
  CHECK(onnxc_value_dim(bc, 1, 2, "Test") == 3);

  // value_to_memref writes through strides.
  float outBuf[6] = {0};
  d = desc(outBuf, 0, {3, 2}, {1, 3});
  onnxc_value_to_memref(tr, ONNXC_DTYPE_FLOAT, 2, d.data(), "Test");
  CHECK(std::vector<float>(outBuf, outBuf + 6) ==
        std::vector<float>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("SplitToSequence and ConcatFromSequence of compiled models",
          "[values][compiled]") {
  int64_t x = floatValue({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // Absent split, keepdims 0: five [2] pieces.
  int64_t s = onnxc_seq_split(x, 0, -1, 0);
  REQUIRE(onnxc_seq_length(s) == 5);
  CHECK(dimsOf(v(onnxc_seq_at(s, 1))) == std::vector<int64_t>{2});
  CHECK(floatValues(v(onnxc_seq_at(s, 1))) == std::vector<float>{1, 6});
  // Scalar split 2: [2,2], [2,2], [2,1].
  int64_t two = 2;
  std::vector<int64_t> d = desc(&two, 0, {}, {});
  int64_t scalar = onnxc_value_from_memref(ONNXC_DTYPE_INT64, 0, d.data());
  s = onnxc_seq_split(x, scalar, 1, 0);
  REQUIRE(onnxc_seq_length(s) == 3);
  CHECK(dimsOf(v(onnxc_seq_at(s, 2))) == std::vector<int64_t>{2, 1});
  CHECK(floatValues(v(onnxc_seq_at(s, 2))) == std::vector<float>{4, 9});
  // A list of sizes.
  int64_t sizes[2] = {1, 4};
  d = desc(sizes, 0, {2}, {1});
  int64_t list = onnxc_value_from_memref(ONNXC_DTYPE_INT64, 1, d.data());
  s = onnxc_seq_split(x, list, 1, 1);
  REQUIRE(onnxc_seq_length(s) == 2);
  CHECK(floatValues(v(onnxc_seq_at(s, 1))) ==
        std::vector<float>{1, 2, 3, 4, 6, 7, 8, 9});

  // Concatenating the pieces along axis 1 gives x back.
  CHECK(onnxc_seq_concat_dim(s, 1, 0, 0) == 2);
  CHECK(onnxc_seq_concat_dim(s, -1, 0, 1) == 5);
  float out[10] = {0};
  d = desc(out, 0, {2, 5}, {5, 1});
  onnxc_seq_concat(s, 1, 0, ONNXC_DTYPE_FLOAT, 2, d.data());
  CHECK(std::vector<float>(out, out + 10) ==
        std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // Stacking the [2] pieces on a new last axis: [2, 5] again.
  s = onnxc_seq_split(x, 0, 1, 0);
  CHECK(onnxc_seq_concat_dim(s, -1, 1, 0) == 2);
  CHECK(onnxc_seq_concat_dim(s, -1, 1, 1) == 5);
  std::memset(out, 0, sizeof(out));
  onnxc_seq_concat(s, -1, 1, ONNXC_DTYPE_FLOAT, 2, d.data());
  CHECK(std::vector<float>(out, out + 10) ==
        std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  // ... or on a new first axis: [5, 2].
  CHECK(onnxc_seq_concat_dim(s, 0, 1, 0) == 5);
  d = desc(out, 0, {5, 2}, {2, 1});
  onnxc_seq_concat(s, 0, 1, ONNXC_DTYPE_FLOAT, 2, d.data());
  CHECK(std::vector<float>(out, out + 10) ==
        std::vector<float>{0, 5, 1, 6, 2, 7, 3, 8, 4, 9});
}

TEST_CASE("ZipMap of compiled models", "[values][compiled]") {
  int64_t probs = floatValue({2, 3}, {0.1f, 0.2f, 0.7f, 0.5f, 0.5f, 0});
  onnxc_tensor *labels = makeStrings({"a", "b", "c"});
  int64_t seq = onnxc_zipmap(probs, h(labels));
  REQUIRE(onnxc_seq_length(seq) == 2);
  const onnxc_tensor *second = v(onnxc_seq_at(seq, 1));
  CHECK(onnxc_value_kind(second) == ONNXC_KIND_MAP);
  CHECK(stringValues(onnxc_map_keys(second)) ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(floatValues(onnxc_map_values(second)) ==
        std::vector<float>{0.5f, 0.5f, 0});
  onnxc_tensor_free(labels);
}

TEST_CASE("onnxc_main reads and writes sequences and optionals as .pb",
          "[values][main]") {
  TempDir in, out;
  onnxc_tensor *seq = onnxc_sequence_create(ONNXC_DTYPE_FLOAT);
  REQUIRE(onnxc_sequence_append(seq, makeFloatTensor({2}, {1, 2})) == ONNXC_OK);
  REQUIRE(onnxc_tensor_write_pb(seq, in.file("seq.pb").c_str(), nullptr) ==
          ONNXC_OK);
  onnxc_tensor_free(seq);
  onnxc_tensor *x = makeFloatTensor({1}, {7});
  REQUIRE(onnxc_tensor_write_pb(x, in.file("x.pb").c_str(), nullptr) ==
          ONNXC_OK);
  REQUIRE(onnxc_tensor_write_npy(x, in.file("x.npy").c_str()) == ONNXC_OK);
  onnxc_tensor_free(x);

  MainResult r =
      runMain(&fakeSeqInsertModel,
              {"--output-dir", out.path(), in.file("seq.pb"), in.file("x.pb")});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  onnxc_tensor *appended =
      onnxc_value_read_pb(out.file("output_0.pb").c_str(), ONNXC_KIND_SEQUENCE);
  REQUIRE(onnxc_sequence_length(appended) == 2);
  CHECK(std::string(onnxc_tensor_name(appended)) == "appended");
  CHECK(floatValues(onnxc_sequence_at(appended, 1)) == std::vector<float>{7});
  onnxc_tensor_free(appended);

  r = runMain(&fakeSeqInsertModel,
              {"--output-dir", out.path(), in.file("x.npy"), in.file("x.pb")});
  CHECK(r.code == 1);
  CHECK(r.err.find("cannot hold one") != std::string::npos);

  r = runMain(&fakeSeqInsertModel, {"--info"});
  CHECK(r.out.find("{\"name\": \"same\", \"kind\": \"sequence\", "
                   "\"elem_kind\": \"tensor\", \"dtype\": \"undefined\", "
                   "\"shape\": null, \"dim_params\": null}") !=
        std::string::npos);

  r = runMain(&fakeOptionalModel,
              {"--output-dir", out.path(), fixture("opt_none.pb")});
  CHECK(r.code == 0);
  onnxc_tensor *none =
      onnxc_value_read_pb(out.file("output_0.pb").c_str(), ONNXC_KIND_OPTIONAL);
  CHECK(onnxc_value_kind(none) == ONNXC_KIND_NONE);
  onnxc_tensor_free(none);
  r = runMain(&fakeOptionalModel,
              {"--output-dir", out.path(), fixture("opt_seq.pb")});
  CHECK(r.code == 1);
  CHECK(r.err.find("expected a tensor but got a sequence") !=
        std::string::npos);
}
