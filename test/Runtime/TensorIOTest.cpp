//===- TensorIOTest.cpp - Unit tests of .pb and .npy tensor files ---------===//

#include "TestUtils.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace onnxc::test;

namespace {
/// A tensor of `dtype` and `dims` whose bytes count up from `seed`.
onnxc_tensor *makePattern(int32_t dtype, const std::vector<int64_t> &dims,
                          unsigned seed) {
  onnxc_tensor *t = onnxc_tensor_create(
      dtype, static_cast<int32_t>(dims.size()), dims.data());
  REQUIRE(t);
  unsigned char *data = static_cast<unsigned char *>(onnxc_tensor_data(t));
  for (size_t i = 0; i < onnxc_tensor_nbytes(t); ++i)
    data[i] = static_cast<unsigned char>(seed + i * 7);
  if (dtype == ONNXC_DTYPE_BOOL)
    for (size_t i = 0; i < onnxc_tensor_nbytes(t); ++i)
      data[i] &= 1;
  return t;
}

void checkSame(const onnxc_tensor *a, const onnxc_tensor *b) {
  CHECK(onnxc_tensor_dtype(a) == onnxc_tensor_dtype(b));
  CHECK(dimsOf(a) == dimsOf(b));
  REQUIRE(onnxc_tensor_nbytes(a) == onnxc_tensor_nbytes(b));
  CHECK(std::memcmp(onnxc_tensor_data(a), onnxc_tensor_data(b),
                    onnxc_tensor_nbytes(a)) == 0);
}

/// Reads `bytes` as a file and returns the tensor (or null).
onnxc_tensor *readFrom(const TempDir &dir, const std::string &bytes,
                       const std::string &name = "t.pb") {
  writeBytes(dir.file(name), bytes);
  return onnxc_tensor_read(dir.file(name).c_str());
}

std::string errorText() { return onnxc_last_error(); }

/// The bytes of `t`'s data.
std::vector<uint8_t> bytesOf(const onnxc_tensor *t) {
  const auto *data = static_cast<const uint8_t *>(onnxc_tensor_data(t));
  return std::vector<uint8_t>(data, data + onnxc_tensor_nbytes(t));
}

struct Case {
  int32_t dtype;
  std::vector<int64_t> dims;
};

const Case roundTripCases[] = {
    {ONNXC_DTYPE_FLOAT, {2, 3}},     {ONNXC_DTYPE_INT64, {}},
    {ONNXC_DTYPE_UINT8, {4}},        {ONNXC_DTYPE_BOOL, {3, 1}},
    {ONNXC_DTYPE_FLOAT16, {2, 2}},   {ONNXC_DTYPE_DOUBLE, {1, 1, 1, 5}},
    {ONNXC_DTYPE_INT8, {2, 3, 4}},   {ONNXC_DTYPE_INT32, {0, 3}},
    {ONNXC_DTYPE_UINT64, {3}},       {ONNXC_DTYPE_INT16, {200}},
    {ONNXC_DTYPE_UINT32, {2, 1, 2}}, {ONNXC_DTYPE_UINT16, {1}}};
} // namespace

TEST_CASE(".pb round trip keeps dtype, shape, data and name", "[io][pb]") {
  TempDir dir;
  unsigned seed = 1;
  for (const Case &c : roundTripCases) {
    INFO(onnxc_dtype_name(c.dtype) << " of rank " << c.dims.size());
    onnxc_tensor *t = makePattern(c.dtype, c.dims, seed++);
    std::string path = dir.file("t.pb");
    REQUIRE(onnxc_tensor_write_pb(t, path.c_str(), "tensor_name") == ONNXC_OK);
    onnxc_tensor *back = onnxc_tensor_read(path.c_str());
    REQUIRE(back);
    checkSame(t, back);
    CHECK(std::string(onnxc_tensor_name(back)) == "tensor_name");
    onnxc_tensor_free(t);
    onnxc_tensor_free(back);
  }
  // Only the final file is left: the temporary was renamed into place.
  CHECK(dir.entries() == std::vector<std::string>{"t.pb"});
}

TEST_CASE(".pb round trip of bfloat16 and of the tensor's own name",
          "[io][pb]") {
  TempDir dir;
  onnxc_tensor *t = makePattern(ONNXC_DTYPE_BFLOAT16, {5}, 3);
  REQUIRE(onnxc_tensor_set_name(t, "own") == ONNXC_OK);
  REQUIRE(onnxc_tensor_write_pb(t, dir.file("b.pb").c_str(), nullptr) ==
          ONNXC_OK);
  onnxc_tensor *back = onnxc_tensor_read(dir.file("b.pb").c_str());
  REQUIRE(back);
  checkSame(t, back);
  CHECK(std::string(onnxc_tensor_name(back)) == "own");
  onnxc_tensor_free(t);
  onnxc_tensor_free(back);
}

TEST_CASE(".pb writer emits the canonical TensorProto bytes", "[io][pb]") {
  TempDir dir;
  onnxc_tensor *t = makeFloatTensor({2}, {1.0f, 2.0f});
  REQUIRE(onnxc_tensor_write_pb(t, dir.file("x.pb").c_str(), "x") == ONNXC_OK);
  std::string expected =
      key(1, 0) + varint(2) + key(2, 0) + varint(1) + lengthDelimited(8, "x") +
      lengthDelimited(9, fixed32(0x3f800000) + fixed32(0x40000000));
  CHECK(readBytes(dir.file("x.pb")) == expected);
  onnxc_tensor_free(t);
}

TEST_CASE(".pb files pack the 2- and 4-bit types", "[io][pb]") {
  TempDir dir;

  SECTION("INT4 in raw_data: two a byte, low bits first, sign-extended") {
    std::string bytes = key(1, 0) + varint(3) + key(2, 0) +
                        varint(ONNXC_DTYPE_INT4) +
                        lengthDelimited(9, std::string("\x78\x01", 2));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(bytesOf(t) == std::vector<uint8_t>{0xf8, 7, 1});
    // Written back packed, byte for byte.
    REQUIRE(onnxc_tensor_write_pb(t, dir.file("y.pb").c_str(), nullptr) ==
            ONNXC_OK);
    CHECK(readBytes(dir.file("y.pb")) ==
          key(1, 0) + varint(3) + key(2, 0) + varint(ONNXC_DTYPE_INT4) +
              lengthDelimited(9, std::string("\x78\x01", 2)));
    onnxc_tensor_free(t);
  }

  SECTION("UINT2 in int32_data: one packed byte an entry") {
    std::string bytes = key(1, 0) + varint(5) + key(2, 0) +
                        varint(ONNXC_DTYPE_UINT2) +
                        lengthDelimited(5, varint(147) + varint(1));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(bytesOf(t) == std::vector<uint8_t>{3, 0, 1, 2, 1});
    onnxc_tensor_free(t);
  }

  SECTION("a packed size that does not match the dims") {
    std::string bytes = key(1, 0) + varint(5) + key(2, 0) +
                        varint(ONNXC_DTYPE_FLOAT4E2M1) +
                        lengthDelimited(9, std::string("\x12", 1));
    CHECK_FALSE(readFrom(dir, bytes));
    CHECK(onnxc_last_status() == ONNXC_ERROR_FORMAT);
    CHECK(errorText().find("raw_data has 1 bytes but float4_e2m1fn [5] "
                           "needs 3") != std::string::npos);
  }

  SECTION("float8 codes take a byte each") {
    std::string bytes = key(1, 0) + varint(2) + key(2, 0) +
                        varint(ONNXC_DTYPE_FLOAT8E4M3FN) +
                        lengthDelimited(5, varint(0x38) + varint(0xb8));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(bytesOf(t) == std::vector<uint8_t>{0x38, 0xb8});
    CHECK(std::string(onnxc_dtype_name(ONNXC_DTYPE_FLOAT8E4M3FN)) ==
          "float8_e4m3fn");
    onnxc_tensor_free(t);
  }
}

TEST_CASE(".pb reader decodes the typed data fields", "[io][pb]") {
  TempDir dir;

  SECTION("packed float_data and packed dims") {
    std::string bytes =
        lengthDelimited(1, varint(2) + varint(2)) + key(2, 0) +
        varint(ONNXC_DTYPE_FLOAT) +
        lengthDelimited(4, fixed32(0x3f800000) + fixed32(0x40000000) +
                               fixed32(0xbf800000) + fixed32(0x00000000)) +
        lengthDelimited(8, "w");
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(dimsOf(t) == std::vector<int64_t>{2, 2});
    CHECK(floatValues(t) == std::vector<float>{1.0f, 2.0f, -1.0f, 0.0f});
    CHECK(std::string(onnxc_tensor_name(t)) == "w");
    onnxc_tensor_free(t);
  }

  SECTION("unpacked float_data after the data_type") {
    std::string bytes = key(4, 5) + fixed32(0x40400000) + key(1, 0) +
                        varint(2) + key(4, 5) + fixed32(0x40800000) +
                        key(2, 0) + varint(ONNXC_DTYPE_FLOAT);
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(floatValues(t) == std::vector<float>{3.0f, 4.0f});
    onnxc_tensor_free(t);
  }

  SECTION("int64_data, packed and unpacked, with negatives") {
    std::string bytes = key(1, 0) + varint(3) + key(2, 0) +
                        varint(ONNXC_DTYPE_INT64) +
                        lengthDelimited(7, varint(5) + varint(uint64_t(-7))) +
                        key(7, 0) + varint(uint64_t(INT64_MIN));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    const int64_t *v = static_cast<const int64_t *>(onnxc_tensor_data(t));
    CHECK(v[0] == 5);
    CHECK(v[1] == -7);
    CHECK(v[2] == INT64_MIN);
    onnxc_tensor_free(t);
  }

  SECTION("int32_data carries int8, uint8, bool and float16") {
    // int8: negatives are sign-extended 10-byte varints.
    std::string bytes =
        key(1, 0) + varint(2) + key(2, 0) + varint(ONNXC_DTYPE_INT8) +
        lengthDelimited(5, varint(uint64_t(int64_t(-3))) + varint(100));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    const int8_t *i8 = static_cast<const int8_t *>(onnxc_tensor_data(t));
    CHECK(i8[0] == -3);
    CHECK(i8[1] == 100);
    onnxc_tensor_free(t);

    bytes = key(2, 0) + varint(ONNXC_DTYPE_UINT8) + key(5, 0) + varint(250);
    t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(onnxc_tensor_rank(t) == 0);
    CHECK(*static_cast<const uint8_t *>(onnxc_tensor_data(t)) == 250);
    onnxc_tensor_free(t);

    bytes = key(1, 0) + varint(3) + key(2, 0) + varint(ONNXC_DTYPE_BOOL) +
            lengthDelimited(5, varint(1) + varint(0) + varint(1));
    t = readFrom(dir, bytes);
    REQUIRE(t);
    const uint8_t *b = static_cast<const uint8_t *>(onnxc_tensor_data(t));
    CHECK((b[0] == 1 && b[1] == 0 && b[2] == 1));
    onnxc_tensor_free(t);

    bytes = key(1, 0) + varint(2) + key(2, 0) + varint(ONNXC_DTYPE_FLOAT16) +
            lengthDelimited(5, varint(0x3c00) + varint(0xc000));
    t = readFrom(dir, bytes);
    REQUIRE(t);
    const uint16_t *h = static_cast<const uint16_t *>(onnxc_tensor_data(t));
    CHECK(h[0] == 0x3c00);
    CHECK(h[1] == 0xc000);
    onnxc_tensor_free(t);
  }

  SECTION("double_data and uint64_data") {
    std::string bytes = key(1, 0) + varint(1) + key(2, 0) +
                        varint(ONNXC_DTYPE_DOUBLE) +
                        lengthDelimited(10, fixed64(0x4000000000000000ull));
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(*static_cast<const double *>(onnxc_tensor_data(t)) == 2.0);
    onnxc_tensor_free(t);

    bytes = key(1, 0) + varint(2) + key(2, 0) + varint(ONNXC_DTYPE_UINT32) +
            key(11, 0) + varint(4000000000u) + key(11, 0) + varint(7);
    t = readFrom(dir, bytes);
    REQUIRE(t);
    const uint32_t *u = static_cast<const uint32_t *>(onnxc_tensor_data(t));
    CHECK(u[0] == 4000000000u);
    CHECK(u[1] == 7);
    onnxc_tensor_free(t);
  }

  SECTION("unknown fields and doc_string are skipped") {
    std::string bytes =
        lengthDelimited(12, "a doc string") + key(1, 0) + varint(1) +
        key(2, 0) + varint(ONNXC_DTYPE_INT32) + key(99, 0) + varint(12345) +
        key(98, 5) + fixed32(1) + key(97, 1) + fixed64(2) +
        lengthDelimited(9, fixed32(42)) + key(14, 0) + varint(0);
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(*static_cast<const int32_t *>(onnxc_tensor_data(t)) == 42);
    onnxc_tensor_free(t);
  }

  SECTION("an empty tensor needs no data") {
    std::string bytes = key(1, 0) + varint(0) + key(1, 0) + varint(4) +
                        key(2, 0) + varint(ONNXC_DTYPE_FLOAT);
    onnxc_tensor *t = readFrom(dir, bytes);
    REQUIRE(t);
    CHECK(onnxc_tensor_numel(t) == 0);
    onnxc_tensor_free(t);
  }
}

TEST_CASE("malformed .pb files give format errors", "[io][pb]") {
  TempDir dir;
  std::string path = dir.file("bad.pb");
  std::string prefix = "'" + path + "' is not a valid TensorProto: ";
  auto expectFormat = [&](const std::string &bytes, const std::string &what) {
    INFO(what);
    CHECK(readFrom(dir, bytes, "bad.pb") == nullptr);
    CHECK(errorText() == prefix + what);
    CHECK(onnxc_last_status() == ONNXC_ERROR_FORMAT);
  };
  std::string header =
      key(1, 0) + varint(2) + key(2, 0) + varint(ONNXC_DTYPE_FLOAT); // 4 bytes

  expectFormat(header + key(9, 2) + "\x88", "truncated varint at byte 5");
  expectFormat(header + "\xff\xff", "truncated varint at byte 4");
  expectFormat(header + std::string(11, '\xff') + "\x01",
               "overlong varint at byte 4");
  expectFormat(header + key(9, 2) + varint(100) + "abc",
               "field 9 at byte 4 has length 100 but only 3 bytes remain");
  expectFormat(header + key(4, 5) + "ab", "truncated field 4 at byte 4");
  expectFormat(header + lengthDelimited(9, "abc"),
               "raw_data has 3 bytes but float32 [2] needs 8");
  expectFormat(key(1, 0) + varint(1) + lengthDelimited(9, "abcd"),
               "missing data_type");
  expectFormat(header + lengthDelimited(7, varint(1) + varint(2)),
               "int64_data cannot hold float32 values");
  expectFormat(header + key(4, 5) + fixed32(0),
               "float_data has 1 values but float32 [2] needs 2");
  expectFormat(header, "has no data but float32 [2] needs 2 values");
  expectFormat(header + lengthDelimited(9, "abcdefgh") + key(4, 5) +
                   fixed32(0) + key(4, 5) + fixed32(0),
               "both raw_data and float_data hold data");
  expectFormat(header + lengthDelimited(4, "abcde"),
               "packed field 4 (float_data) at byte 4 has 5 bytes, not a "
               "multiple of 4");
  expectFormat(header + key(8, 0) + varint(1),
               "field 8 (name) has wire type 0 at byte 4");
  expectFormat(header + key(3, 3), "unsupported group (wire type 3) at byte 4");
  expectFormat(header + key(5, 7), "invalid wire type 7 at byte 4");
  expectFormat(std::string("\x00", 1), "invalid field number 0 at byte 0");
  expectFormat(key(1, 0) + varint(uint64_t(-2)) + key(2, 0) + varint(1),
               "dim 0 is negative (-2)");
  expectFormat("", "missing data_type");

  // A truncated copy of a valid file.
  onnxc_tensor *t = makeFloatTensor({2, 2}, {1, 2, 3, 4});
  REQUIRE(onnxc_tensor_write_pb(t, path.c_str(), "x") == ONNXC_OK);
  std::string whole = readBytes(path);
  onnxc_tensor_free(t);
  for (size_t len = 1; len < whole.size(); ++len) {
    INFO("truncated to " << len << " bytes");
    writeBytes(path, whole.substr(0, len));
    CHECK(onnxc_tensor_read(path.c_str()) == nullptr);
    CHECK(errorText().rfind(prefix, 0) == 0);
    CHECK(onnxc_last_status() == ONNXC_ERROR_FORMAT);
  }
}

TEST_CASE("unsupported .pb features", "[io][pb]") {
  TempDir dir;
  std::string path = dir.file("u.pb");
  std::string header = key(1, 0) + varint(1) + key(2, 0) + varint(1);
  CHECK(readFrom(dir,
                 header + lengthDelimited(13, lengthDelimited(1, "location") +
                                                  lengthDelimited(2, "w.bin")),
                 "u.pb") == nullptr);
  CHECK(errorText() == "'" + path + "': external data is not supported");
  CHECK(onnxc_last_status() == ONNXC_ERROR_UNSUPPORTED);
  CHECK(readFrom(dir, header + key(14, 0) + varint(1), "u.pb") == nullptr);
  CHECK(errorText() == "'" + path + "': external data is not supported");
  CHECK(readFrom(dir, key(2, 0) + varint(14), "u.pb") == nullptr);
  CHECK(errorText() == "'" + path + "': data_type 14 is not supported");
}

TEST_CASE(".pb string tensors: string_data in, string_data out", "[io][pb]") {
  TempDir dir;
  // dims [3], STRING, three strings: one empty, one with a NUL, one UTF-8.
  std::string nul("a\0b", 3);
  std::string file = key(1, 0) + varint(3) + key(2, 0) + varint(8) +
                     lengthDelimited(6, "") + lengthDelimited(6, nul) +
                     lengthDelimited(6, "\xe7\x9a\x84");
  onnxc_tensor *t = readFrom(dir, file);
  REQUIRE(t);
  CHECK(onnxc_tensor_dtype(t) == ONNXC_DTYPE_STRING);
  CHECK(dimsOf(t) == std::vector<int64_t>{3});
  size_t size = 99;
  CHECK(std::string(onnxc_tensor_string(t, 0, &size)) == "");
  CHECK(size == 0);
  const char *s = onnxc_tensor_string(t, 1, &size);
  CHECK(std::string(s, size) == nul);
  CHECK(std::string(onnxc_tensor_string(t, 2, nullptr)) == "\xe7\x9a\x84");
  CHECK(onnxc_tensor_string(t, 3, nullptr) == nullptr);
  // Written back, the same bytes (no name, so none written).
  REQUIRE(onnxc_tensor_write_pb(t, dir.file("o.pb").c_str(), nullptr) ==
          ONNXC_OK);
  CHECK(readBytes(dir.file("o.pb")) == file);
  CHECK(onnxc_tensor_write_npy(t, dir.file("o.npy").c_str()) ==
        ONNXC_ERROR_UNSUPPORTED);
  onnxc_tensor_free(t);

  // Too few strings, or raw_data, are format errors.
  std::string path = dir.file("t.pb");
  CHECK(readFrom(dir, key(1, 0) + varint(2) + key(2, 0) + varint(8) +
                          lengthDelimited(6, "x")) == nullptr);
  CHECK(errorText() == "'" + path +
                           "' is not a valid TensorProto: a string tensor [2] "
                           "needs 2 strings in string_data (got 1)");
  CHECK(readFrom(dir, key(2, 0) + varint(8) + lengthDelimited(9, "xxxxxxxx")) ==
        nullptr);
  CHECK(onnxc_last_status() == ONNXC_ERROR_FORMAT);
}

TEST_CASE("string tensors made by the caller", "[tensor][string]") {
  const char *values[] = {"monday", "", "x"};
  int64_t dims[] = {1, 3};
  onnxc_tensor *t = onnxc_tensor_create_strings(2, dims, values, nullptr);
  REQUIRE(t);
  CHECK(onnxc_tensor_numel(t) == 3);
  CHECK(onnxc_tensor_nbytes(t) == 3 * sizeof(int64_t));
  CHECK(std::string(onnxc_tensor_string(t, 0, nullptr)) == "monday");
  CHECK(std::string(onnxc_tensor_string(t, 2, nullptr)) == "x");
  onnxc_tensor_free(t);
  // A created string tensor holds empty strings; wrapping is refused.
  onnxc_tensor *empty = onnxc_tensor_create(ONNXC_DTYPE_STRING, 2, dims);
  REQUIRE(empty);
  size_t size = 1;
  CHECK(std::string(onnxc_tensor_string(empty, 1, &size)) == "");
  CHECK(size == 0);
  onnxc_tensor_free(empty);
  int64_t handles[3] = {0, 0, 0};
  CHECK(onnxc_tensor_wrap(ONNXC_DTYPE_STRING, 2, dims, handles) == nullptr);
  CHECK(onnxc_last_status() == ONNXC_ERROR_UNSUPPORTED);
}

TEST_CASE("missing and unwritable files give I/O errors", "[io]") {
  TempDir dir;
  std::string missing = dir.file("foo.pb");
  CHECK(onnxc_tensor_read(missing.c_str()) == nullptr);
  CHECK(errorText() ==
        "cannot read '" + missing + "': No such file or directory");
  CHECK(onnxc_last_status() == ONNXC_ERROR_IO);
  CHECK(onnxc_tensor_read(dir.path().c_str()) == nullptr);
  CHECK(errorText() == "cannot read '" + dir.path() + "': Is a directory");

  onnxc_tensor *t = makeFloatTensor({1}, {1});
  std::string nowhere = dir.file("no/such/dir/x.pb");
  CHECK(onnxc_tensor_write_pb(t, nowhere.c_str(), nullptr) == ONNXC_ERROR_IO);
  CHECK(errorText() ==
        "cannot write '" + nowhere + "': No such file or directory");
  CHECK(onnxc_tensor_write_npy(t, nowhere.c_str()) == ONNXC_ERROR_IO);
  onnxc_tensor_free(t);
  CHECK(dir.entries().empty());
}

TEST_CASE(".npy round trip", "[io][npy]") {
  TempDir dir;
  unsigned seed = 11;
  for (const Case &c : roundTripCases) {
    INFO(onnxc_dtype_name(c.dtype) << " of rank " << c.dims.size());
    onnxc_tensor *t = makePattern(c.dtype, c.dims, seed++);
    std::string path = dir.file("t.npy");
    REQUIRE(onnxc_tensor_write_npy(t, path.c_str()) == ONNXC_OK);
    std::string bytes = readBytes(path);
    REQUIRE(bytes.size() >= 64);
    CHECK(bytes.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
    size_t headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    CHECK((10 + headerLen) % 64 == 0);
    CHECK(bytes[10 + headerLen - 1] == '\n');
    onnxc_tensor *back = onnxc_tensor_read(path.c_str());
    REQUIRE(back);
    checkSame(t, back);
    onnxc_tensor_free(t);
    onnxc_tensor_free(back);
  }
  CHECK(dir.entries() == std::vector<std::string>{"t.npy"});
}

TEST_CASE(".npy header text matches numpy's", "[io][npy]") {
  TempDir dir;
  auto headerOf = [&](onnxc_tensor *t) {
    std::string path = dir.file("h.npy");
    REQUIRE(onnxc_tensor_write_npy(t, path.c_str()) == ONNXC_OK);
    onnxc_tensor_free(t);
    std::string bytes = readBytes(path);
    size_t headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    std::string header = bytes.substr(10, headerLen);
    return header.substr(0, header.find_last_not_of(" \n") + 1);
  };
  CHECK(headerOf(makeFloatTensor({2, 3}, {})) ==
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  CHECK(headerOf(makeFloatTensor({7}, {})) ==
        "{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }");
  CHECK(headerOf(onnxc_tensor_create(ONNXC_DTYPE_BOOL, 0, nullptr)) ==
        "{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
}

namespace {
std::string npyFile(int major, const std::string &dict,
                    const std::string &data) {
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back('\0');
  std::string header = dict + "\n";
  if (major == 1) {
    out.push_back(static_cast<char>(header.size() & 0xff));
    out.push_back(static_cast<char>(header.size() >> 8));
  } else {
    out += fixed32(static_cast<uint32_t>(header.size()));
  }
  return out + header + data;
}
} // namespace

TEST_CASE(".npy reader accepts versions 1 to 3 and numpy's descrs",
          "[io][npy]") {
  TempDir dir;
  std::string four = fixed32(0x3f800000) + fixed32(0x40000000);
  for (int major : {1, 2, 3}) {
    INFO("version " << major);
    onnxc_tensor *t = readFrom(
        dir,
        npyFile(major,
                "{\"shape\": (1, 2), 'fortran_order': False, 'descr': '<f4'}",
                four),
        "v.npy");
    REQUIRE(t);
    CHECK(dimsOf(t) == std::vector<int64_t>{1, 2});
    CHECK(floatValues(t) == std::vector<float>{1.0f, 2.0f});
    onnxc_tensor_free(t);
  }
  struct {
    const char *descr;
    int32_t dtype;
  } descrs[] = {{"<f2", ONNXC_DTYPE_FLOAT16}, {"<f8", ONNXC_DTYPE_DOUBLE},
                {"<i8", ONNXC_DTYPE_INT64},   {"|b1", ONNXC_DTYPE_BOOL},
                {"|u1", ONNXC_DTYPE_UINT8},   {"|i1", ONNXC_DTYPE_INT8},
                {"<u2", ONNXC_DTYPE_UINT16},  {">u1", ONNXC_DTYPE_UINT8}};
  for (const auto &d : descrs) {
    INFO(d.descr);
    size_t size = onnxc_dtype_size(d.dtype);
    onnxc_tensor *t =
        readFrom(dir,
                 npyFile(1,
                         std::string("{'descr': '") + d.descr +
                             "', 'fortran_order': False, 'shape': (3,), }",
                         std::string(3 * size, '\x01')),
                 "d.npy");
    REQUIRE(t);
    CHECK(onnxc_tensor_dtype(t) == d.dtype);
    onnxc_tensor_free(t);
  }
  // fortran_order is harmless when at most one dim exceeds 1.
  onnxc_tensor *t = readFrom(
      dir,
      npyFile(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1), }",
              four),
      "f.npy");
  REQUIRE(t);
  onnxc_tensor_free(t);
}

TEST_CASE("bad .npy files are rejected", "[io][npy]") {
  TempDir dir;
  std::string path = dir.file("bad.npy");
  std::string prefix = "'" + path + "' is not a valid .npy file: ";
  auto expect = [&](const std::string &bytes, onnxc_status status,
                    const std::string &message) {
    INFO(message);
    writeBytes(path, bytes);
    CHECK(onnxc_tensor_read(path.c_str()) == nullptr);
    CHECK(errorText() == message);
    CHECK(onnxc_last_status() == status);
  };
  const std::string ok = "'fortran_order': False, 'shape': (2,), }";
  expect(npyFile(1, "{'descr': '<f4', " + ok, "abc"), ONNXC_ERROR_FORMAT,
         prefix + "has 3 bytes of data but float32 [2] needs 8");
  expect(std::string("\x93NUMPY\x01\x00\x40", 9), ONNXC_ERROR_FORMAT,
         prefix + "truncated header");
  expect(std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 17),
         ONNXC_ERROR_FORMAT, prefix + "header of 64 bytes is truncated");
  expect(npyFile(1, "['descr']", ""), ONNXC_ERROR_FORMAT,
         prefix + "header is not a dict");
  expect(npyFile(1, "{'descr': '<f4', 'shape': (2,), }", "12345678"),
         ONNXC_ERROR_FORMAT, prefix + "header lacks 'fortran_order'");
  expect(npyFile(1,
                 "{'descr': '<f4', 'fortran_order': False, 'shape': (2,x), }",
                 ""),
         ONNXC_ERROR_FORMAT, prefix + "malformed shape");
  expect(npyFile(1, "{'descr': '>f4', " + ok, "12345678"),
         ONNXC_ERROR_UNSUPPORTED,
         "'" + path + "': big-endian .npy data ('>f4') is not supported");
  expect(npyFile(1, "{'descr': '<c8', " + ok, "12345678"),
         ONNXC_ERROR_UNSUPPORTED,
         "'" + path + "': .npy dtype '<c8' is not supported");
  expect(npyFile(1, "{'descr': [('a', '<f4')], " + ok, "12345678"),
         ONNXC_ERROR_UNSUPPORTED,
         "'" + path + "': structured .npy dtypes are not supported");
  expect(npyFile(1,
                 "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                 std::string(16, '\0')),
         ONNXC_ERROR_UNSUPPORTED,
         "'" + path + "': fortran_order True is not supported");
  expect(npyFile(4, "{}", ""), ONNXC_ERROR_UNSUPPORTED,
         "'" + path + "': .npy format version 4.0 is not supported");

  // A truncated copy of a valid file.
  onnxc_tensor *t = makeFloatTensor({2, 2}, {1, 2, 3, 4});
  REQUIRE(onnxc_tensor_write_npy(t, path.c_str()) == ONNXC_OK);
  std::string whole = readBytes(path);
  onnxc_tensor_free(t);
  for (size_t len = 6; len < whole.size(); ++len) {
    INFO("truncated to " << len << " bytes");
    writeBytes(path, whole.substr(0, len));
    CHECK(onnxc_tensor_read(path.c_str()) == nullptr);
    CHECK(errorText().rfind(prefix, 0) == 0);
    CHECK(onnxc_last_status() == ONNXC_ERROR_FORMAT);
  }

  onnxc_tensor *bf = onnxc_tensor_create(ONNXC_DTYPE_BFLOAT16, 0, nullptr);
  CHECK(onnxc_tensor_write_npy(bf, path.c_str()) == ONNXC_ERROR_UNSUPPORTED);
  onnxc_tensor_free(bf);
}

TEST_CASE("the file format is chosen by content", "[io]") {
  TempDir dir;
  onnxc_tensor *t = makeFloatTensor({2}, {5.0f, 6.0f});
  std::string path = dir.file("looks_like.pb");
  REQUIRE(onnxc_tensor_write_npy(t, path.c_str()) == ONNXC_OK);
  onnxc_tensor *back = onnxc_tensor_read(path.c_str());
  REQUIRE(back);
  checkSame(t, back);
  onnxc_tensor_free(back);
  path = dir.file("looks_like.npy");
  REQUIRE(onnxc_tensor_write_pb(t, path.c_str(), nullptr) == ONNXC_OK);
  back = onnxc_tensor_read(path.c_str());
  REQUIRE(back);
  checkSame(t, back);
  onnxc_tensor_free(back);
  onnxc_tensor_free(t);
}
