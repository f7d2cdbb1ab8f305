//===- TensorTest.cpp - Unit tests of dtypes, errors and tensors ----------===//

#include "TestUtils.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <thread>

extern "C" int onnxcHeaderCheck(void);

using namespace onnxc::test;

TEST_CASE("the public header compiles as C", "[dtype]") {
  CHECK(onnxcHeaderCheck() == ONNXC_DTYPE_FLOAT + 2 + ONNXC_MAX_RANK);
}

TEST_CASE("dtype names follow numpy", "[dtype]") {
  struct {
    int32_t dtype;
    const char *name;
    size_t size;
  } table[] = {{ONNXC_DTYPE_FLOAT, "float32", 4},
               {ONNXC_DTYPE_UINT8, "uint8", 1},
               {ONNXC_DTYPE_INT8, "int8", 1},
               {ONNXC_DTYPE_UINT16, "uint16", 2},
               {ONNXC_DTYPE_INT16, "int16", 2},
               {ONNXC_DTYPE_INT32, "int32", 4},
               {ONNXC_DTYPE_INT64, "int64", 8},
               {ONNXC_DTYPE_STRING, "string", 8},
               {ONNXC_DTYPE_BOOL, "bool", 1},
               {ONNXC_DTYPE_FLOAT16, "float16", 2},
               {ONNXC_DTYPE_DOUBLE, "float64", 8},
               {ONNXC_DTYPE_UINT32, "uint32", 4},
               {ONNXC_DTYPE_UINT64, "uint64", 8},
               {ONNXC_DTYPE_BFLOAT16, "bfloat16", 2},
               {ONNXC_DTYPE_UNDEFINED, "undefined", 0}};
  for (const auto &row : table) {
    INFO("dtype " << row.dtype);
    CHECK(std::string(onnxc_dtype_name(row.dtype)) == row.name);
    CHECK(onnxc_dtype_size(row.dtype) == row.size);
  }
  CHECK(std::string(onnxc_dtype_name(14)) == "unknown");
  CHECK(onnxc_dtype_size(14) == 0);
  CHECK(onnxc_dtype_size(-3) == 0);
}

TEST_CASE("tensor_create zero-fills and reports its shape", "[tensor]") {
  int64_t dims[3] = {2, 3, 4};
  onnxc_tensor *t = onnxc_tensor_create(ONNXC_DTYPE_INT16, 3, dims);
  REQUIRE(t);
  CHECK(onnxc_tensor_dtype(t) == ONNXC_DTYPE_INT16);
  CHECK(onnxc_tensor_rank(t) == 3);
  CHECK(dimsOf(t) == std::vector<int64_t>{2, 3, 4});
  CHECK(onnxc_tensor_numel(t) == 24);
  CHECK(onnxc_tensor_nbytes(t) == 48);
  CHECK(std::string(onnxc_tensor_name(t)).empty());
  const unsigned char *data =
      static_cast<const unsigned char *>(onnxc_tensor_data(t));
  REQUIRE(data);
  for (size_t i = 0; i < 48; ++i)
    CHECK(data[i] == 0);
  onnxc_tensor_free(t);
  onnxc_tensor_free(nullptr);
}

TEST_CASE("rank 0 and empty tensors", "[tensor]") {
  onnxc_tensor *scalar = onnxc_tensor_create(ONNXC_DTYPE_DOUBLE, 0, nullptr);
  REQUIRE(scalar);
  CHECK(onnxc_tensor_numel(scalar) == 1);
  CHECK(onnxc_tensor_nbytes(scalar) == 8);
  onnxc_tensor_free(scalar);

  int64_t dims[2] = {0, 5};
  onnxc_tensor *empty = onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, dims);
  REQUIRE(empty);
  CHECK(onnxc_tensor_numel(empty) == 0);
  CHECK(onnxc_tensor_nbytes(empty) == 0);
  CHECK(onnxc_tensor_data(empty) != nullptr);
  onnxc_tensor_free(empty);
}

TEST_CASE("tensor_create rejects bad shapes and dtypes", "[tensor]") {
  int64_t dims[17] = {0};
  for (auto &d : dims)
    d = 1;
  CHECK(onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 17, dims) == nullptr);
  CHECK(std::string(onnxc_last_error()) == "rank 17 is out of range [0, 16]");

  int64_t negative[2] = {2, -1};
  CHECK(onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, negative) == nullptr);
  CHECK(std::string(onnxc_last_error()) == "dim 1 is negative (-1)");

  CHECK(onnxc_tensor_create(99, 1, dims) == nullptr);
  CHECK(std::string(onnxc_last_error()) == "unknown dtype 99");

  int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  CHECK(onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, huge) == nullptr);
  CHECK(std::string(onnxc_last_error()).find("too large") != std::string::npos);
}

TEST_CASE("tensor_wrap borrows the caller's data", "[tensor]") {
  float values[6] = {1, 2, 3, 4, 5, 6};
  int64_t dims[2] = {3, 2};
  onnxc_tensor *t = onnxc_tensor_wrap(ONNXC_DTYPE_FLOAT, 2, dims, values);
  REQUIRE(t);
  CHECK(onnxc_tensor_data(t) == values);
  CHECK(onnxc_tensor_nbytes(t) == sizeof(values));
  onnxc_tensor_free(t); // must not free `values`
  CHECK(values[5] == 6);

  CHECK(onnxc_tensor_wrap(ONNXC_DTYPE_FLOAT, 2, dims, nullptr) == nullptr);
  int64_t zero[1] = {0};
  onnxc_tensor *empty = onnxc_tensor_wrap(ONNXC_DTYPE_FLOAT, 1, zero, nullptr);
  REQUIRE(empty);
  onnxc_tensor_free(empty);
}

TEST_CASE("tensor names", "[tensor]") {
  onnxc_tensor *t = onnxc_tensor_create(ONNXC_DTYPE_UINT8, 0, nullptr);
  REQUIRE(t);
  CHECK(onnxc_tensor_set_name(t, "logits") == ONNXC_OK);
  CHECK(std::string(onnxc_tensor_name(t)) == "logits");
  CHECK(onnxc_tensor_set_name(t, nullptr) == ONNXC_OK);
  CHECK(std::string(onnxc_tensor_name(t)).empty());
  onnxc_tensor_free(t);
  CHECK(onnxc_tensor_set_name(nullptr, "x") == ONNXC_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("the last error is per thread", "[tensor]") {
  int64_t dims[1] = {-5};
  CHECK(onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 1, dims) == nullptr);
  std::string mine = onnxc_last_error();
  std::string theirs;
  std::thread other([&] {
    theirs = onnxc_last_error();
    onnxc_tensor_create(99, 0, nullptr);
  });
  other.join();
  CHECK(theirs.empty());
  CHECK(std::string(onnxc_last_error()) == mine);
}

namespace {
/// The handles of a string tensor of `values` (kept alive by `holder`).
std::vector<int64_t> handlesOf(const std::vector<const char *> &values,
                               onnxc_tensor *&holder) {
  int64_t dims[] = {static_cast<int64_t>(values.size())};
  holder = onnxc_tensor_create_strings(1, dims, values.data(), nullptr);
  REQUIRE(holder);
  const auto *h = static_cast<const int64_t *>(onnxc_tensor_data(holder));
  return std::vector<int64_t>(h, h + values.size());
}

std::string stringOf(int64_t handle) {
  // A handle is the address of an int64 size followed by the bytes.
  const auto *size = reinterpret_cast<const int64_t *>(handle);
  return handle ? std::string(reinterpret_cast<const char *>(size + 1),
                              static_cast<size_t>(*size))
                : std::string();
}

/// The parts of `s` split as StringSplit does.
std::vector<std::string> split(int64_t s, int64_t delim, int64_t maxsplit) {
  std::vector<std::string> parts;
  int64_t n = onnxc_string_split_count(s, delim, maxsplit);
  for (int64_t i = 0; i < n; ++i)
    parts.push_back(stringOf(onnxc_string_split_part(s, delim, maxsplit, i)));
  CHECK(onnxc_string_split_part(s, delim, maxsplit, n) == 0);
  return parts;
}
} // namespace

TEST_CASE("the string operations of compiled models", "[tensor][string]") {
  onnxc_tensor *holder;
  std::vector<int64_t> h = handlesOf(
      {"a-b--c", "-", "  x  y z ", "", "Monday", "monday", "MONDAY"}, holder);
  using Parts = std::vector<std::string>;
  // Python's str.split: at each delimiter, or at whitespace runs.
  CHECK(split(h[0], h[1], -1) == Parts{"a", "b", "", "c"});
  CHECK(split(h[0], h[1], 1) == Parts{"a", "b--c"});
  CHECK(split(h[2], 0, -1) == Parts{"x", "y", "z"});
  CHECK(split(h[2], h[3], 1) == Parts{"x", "y z "});
  CHECK(split(h[3], 0, -1).empty());
  CHECK(split(h[3], h[1], -1) == Parts{""});
  CHECK(stringOf(onnxc_string_concat(h[0], h[1])) == "a-b--c-");
  CHECK(onnxc_string_equal(h[3], 0));
  CHECK(!onnxc_string_equal(h[4], h[5]));
  CHECK(stringOf(onnxc_string_change_case(h[4], 1)) == "MONDAY");
  CHECK(stringOf(onnxc_string_change_case(h[6], 0)) == "monday");
  // A table is records back to back: those of a tensor's strings are.
  CHECK(onnxc_string_in_table(h[6], h[4], 3, false));
  CHECK(!onnxc_string_in_table(h[6], h[4], 2, true));
  CHECK(onnxc_string_in_table(h[5], h[4], 2, true));
  onnxc_tensor_free(holder);
}
