//===- TensorConversion.cpp - ONNX TensorProto <-> elements attributes ----===//

#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace onnxc::frontend {

/// Tensors above this size become dense resources instead of uniqued dense
/// attributes, so their bytes are neither copied nor hashed.
static constexpr size_t kResourceThresholdBytes = 1024;

/// The most elements a tensor in a model may have (2^40, 4 TiB of floats):
/// beyond it sizes stop fitting in memory, and their products in 64 bits.
static constexpr int64_t kMaxTensorElements = int64_t(1) << 40;

/// The bytes an element takes in memory: one for bool and for the integers
/// narrower than a byte (INT4, UINT4, INT2, UINT2, one value a byte).
static size_t byteWidth(Type element) {
  return std::max<size_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// The bits an element of INT4, UINT4, INT2 or UINT2 takes in ONNX's packed
/// form (two or four values a byte, the first in the low bits), else 0.
static unsigned packedBits(Type element) {
  auto intType = dyn_cast<IntegerType>(element);
  return intType && (intType.getWidth() == 4 || intType.getWidth() == 2)
             ? intType.getWidth()
             : 0;
}

/// The bytes that `count` packed values of `bits` bits take.
static size_t packedSize(int64_t count, unsigned bits) {
  return (count * bits + 7) / 8;
}

/// `count` values of `bits` bits packed in `packed` as one byte each, the
/// signed ones (`isSigned`) sign-extended.
static std::vector<char> unpackValues(ArrayRef<uint8_t> packed, int64_t count,
                                      unsigned bits, bool isSigned) {
  std::vector<char> bytes(count);
  unsigned perByte = 8 / bits;
  for (int64_t i = 0; i < count; ++i) {
    unsigned v =
        (packed[i / perByte] >> (i % perByte * bits)) & ((1u << bits) - 1);
    bytes[i] = static_cast<char>(isSigned ? llvm::SignExtend32(v, bits) : v);
  }
  return bytes;
}

/// `name` as a resource key that MLIR's parser reads back (a bare
/// identifier): other characters than letters, digits, '_', '.' and '$'
/// become '_', as the "::" of PyTorch's "onnx::Conv_193", and a key that
/// would not start with a letter or '_' gets a '_' before it. (The blob
/// manager makes keys unique; the op keeps the ONNX name in `onnx.name`.)
static std::string resourceKey(StringRef name) {
  std::string key;
  for (char c : name)
    key += llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' ? c : '_';
  if (key.empty() || !(llvm::isAlpha(key[0]) || key[0] == '_'))
    key.insert(key.begin(), '_');
  return key;
}

/// Wraps `size` bytes at `data` as a resource of `type` named after `name`,
/// keeping them alive through `owner` (released by the blob's deleter).
template <typename OwnerT>
static ElementsAttr makeResource(ShapedType type, StringRef name,
                                 const char *data, size_t size,
                                 std::unique_ptr<OwnerT> owner) {
  std::string key = resourceKey(name);
  size_t align = std::min<size_t>(byteWidth(type.getElementType()), 8);
  if (align == 0 || reinterpret_cast<uintptr_t>(data) % align != 0) {
    // Misaligned (e.g. an external file at an odd offset): one copy.
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(data, size), 8);
    return DenseResourceElementsAttr::get(type, key, std::move(blob));
  }
  OwnerT *raw = owner.release();
  AsmResourceBlob blob(
      ArrayRef<char>(data, size), align,
      [raw](void *, size_t, size_t) { delete raw; }, /*dataIsMutable=*/false);
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}

/// Dense attribute from little-endian raw bytes (bools one byte each).
static ElementsAttr denseFromRaw(ShapedType type, ArrayRef<char> raw) {
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> values;
    for (char c : raw)
      values.push_back(c != 0);
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

/// Raw little-endian bytes from ONNX's typed repeated fields.
static LogicalResult typedFieldBytes(const ::onnx::TensorProto &t, Type element,
                                     int64_t count, std::vector<char> &bytes,
                                     std::string &error) {
  size_t width = byteWidth(element);
  auto store = [&](auto values) -> LogicalResult {
    if (static_cast<int64_t>(values.size()) != count) {
      error = "holds " + std::to_string(values.size()) +
              " values but its dims say " + std::to_string(count);
      return failure();
    }
    bytes.resize(count * width);
    for (int64_t i = 0; i < count; ++i) {
      uint64_t v = static_cast<uint64_t>(values[i]);
      std::memcpy(bytes.data() + i * width, &v, width);
    }
    return success();
  };
  if (element.isF32()) {
    if (t.float_data_size() != count) {
      error = "holds " + std::to_string(t.float_data_size()) +
              " floats but its dims say " + std::to_string(count);
      return failure();
    }
    bytes.resize(count * 4);
    if (count > 0) // an empty field's data() may be null
      std::memcpy(bytes.data(), t.float_data().data(), count * 4);
    return success();
  }
  if (element.isF64()) {
    if (t.double_data_size() != count) {
      error = "holds " + std::to_string(t.double_data_size()) +
              " doubles but its dims say " + std::to_string(count);
      return failure();
    }
    bytes.resize(count * 8);
    if (count > 0) // an empty field's data() may be null
      std::memcpy(bytes.data(), t.double_data().data(), count * 8);
    return success();
  }
  if (element.isInteger(64) && !element.isUnsignedInteger())
    return store(t.int64_data());
  if (element.isUnsignedInteger(64) || element.isUnsignedInteger(32))
    return store(t.uint64_data());
  // int32_data carries every narrower type, fp16/bf16 as their bits.
  return store(t.int32_data());
}

/// True when the (real) path `path` lies inside the directory `dir`.
static bool isInside(StringRef path, StringRef dir) {
  auto p = llvm::sys::path::begin(path), pEnd = llvm::sys::path::end(path);
  for (auto d = llvm::sys::path::begin(dir), dEnd = llvm::sys::path::end(dir);
       d != dEnd; ++d, ++p)
    if (p == pEnd || *p != *d)
      return false;
  return p != pEnd;
}

LogicalResult resolveExternalData(StringRef modelDir, StringRef location,
                                  SmallVectorImpl<char> &realPath,
                                  std::string &error) {
  // As ONNX's checker: a relative path that stays inside the model's
  // directory...
  if (llvm::sys::path::is_absolute(location) ||
      llvm::any_of(llvm::make_range(llvm::sys::path::begin(location),
                                    llvm::sys::path::end(location)),
                   [](StringRef part) { return part == ".."; })) {
    error = "has external data location '" + location.str() +
            "' outside the model's directory";
    return failure();
  }
  SmallString<256> path(modelDir);
  llvm::sys::path::append(path, location);
  // ... also once symbolic links are followed, which the checker does not.
  SmallString<256> realDir;
  if (std::error_code ec = llvm::sys::fs::real_path(
          modelDir.empty() ? StringRef(".") : modelDir, realDir)) {
    error = "has external data in a directory '" + modelDir.str() +
            "' that cannot be read: " + ec.message();
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::real_path(path, realPath)) {
    error = "has external data '" + std::string(path) +
            "' that cannot be read: " + ec.message();
    return failure();
  }
  StringRef resolved(realPath.data(), realPath.size());
  if (!isInside(resolved, realDir)) {
    error = "has external data location '" + location.str() +
            "' outside the model's directory (it resolves to '" +
            resolved.str() + "')";
    return failure();
  }
  return success();
}

std::string dataTypeName(int64_t code) {
  static constexpr const char *kNames[] = {
      "UNDEFINED",      "FLOAT",      "UINT8",
      "INT8",           "UINT16",     "INT16",
      "INT32",          "INT64",      "STRING",
      "BOOL",           "FLOAT16",    "DOUBLE",
      "UINT32",         "UINT64",     "COMPLEX64",
      "COMPLEX128",     "BFLOAT16",   "FLOAT8E4M3FN",
      "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
      "UINT4",          "INT4",       "FLOAT4E2M1",
      "FLOAT8E8M0",     "UINT2",      "INT2"};
  if (code >= 0 && code < static_cast<int64_t>(std::size(kNames)))
    return kNames[code];
  return "with code " + std::to_string(code);
}

/// A tensor of INT4, UINT4, INT2 or UINT2: ONNX packs its values in
/// raw_data, or in int32_data one byte a value; the attribute holds one
/// value a byte (MLIR's storage of i4 and i2).
static FailureOr<ElementsAttr> convertPackedTensor(::onnx::TensorProto &t,
                                                   RankedTensorType type,
                                                   unsigned bits,
                                                   std::string &error) {
  int64_t count = type.getNumElements();
  size_t size = packedSize(count, bits);
  std::vector<uint8_t> packed;
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    error = "has external data of a type narrower than a byte, which onnxc "
            "does not read";
    return failure();
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != size) {
      error = "has " + std::to_string(t.raw_data().size()) +
              " bytes of raw data but its dims and type need " +
              std::to_string(size);
      return failure();
    }
    packed.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    if (static_cast<size_t>(t.int32_data_size()) != size) {
      error = "holds " + std::to_string(t.int32_data_size()) +
              " packed bytes but its dims say " + std::to_string(size);
      return failure();
    }
    for (int32_t v : t.int32_data())
      packed.push_back(static_cast<uint8_t>(v));
  }
  std::vector<char> bytes = unpackValues(
      packed, count, bits, !type.getElementType().isUnsignedInteger());
  return denseFromRaw(type, bytes);
}

/// A tensor of STRING: its string_data, one entry an element, held as a
/// dense string attribute (never external: ONNX stores strings inline).
static FailureOr<ElementsAttr> convertStringTensor(::onnx::TensorProto &t,
                                                   MLIRContext *ctx,
                                                   std::string &error) {
  int64_t count = 1;
  SmallVector<int64_t> dims;
  for (int64_t d : t.dims()) {
    if (d < 0 || llvm::MulOverflow(count, d, count) ||
        count > kMaxTensorElements) {
      error = "has a negative or oversized dim";
      return failure();
    }
    dims.push_back(d);
  }
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL || t.has_raw_data()) {
    error = "is a STRING tensor with raw or external data (ONNX stores "
            "strings in string_data)";
    return failure();
  }
  if (t.string_data_size() != count) {
    error = "holds " + std::to_string(t.string_data_size()) +
            " strings but its dims say " + std::to_string(count);
    return failure();
  }
  SmallVector<StringRef> values(t.string_data().begin(), t.string_data().end());
  auto type = RankedTensorType::get(dims, onnx::StringType::get(ctx));
  return ElementsAttr(DenseStringElementsAttr::get(type, values));
}

FailureOr<ElementsAttr> convertTensor(::onnx::TensorProto &t,
                                      StringRef modelDir, MLIRContext *ctx,
                                      std::string &error) {
  Type element = onnx::getValueElementType(ctx, t.data_type());
  if (!element) {
    error = "has unsupported data type " + dataTypeName(t.data_type());
    return failure();
  }
  if (isa<onnx::StringType>(element))
    return convertStringTensor(t, ctx, error);
  // MLIR's elements attributes hold builtin integers and floats only.
  if (!element.isIntOrFloat()) {
    error = "has data type " + dataTypeName(t.data_type()) +
            ", which onnxc takes as graph inputs and outputs but not as "
            "constants";
    return failure();
  }
  SmallVector<int64_t> dims(t.dims().begin(), t.dims().end());
  // The byte size must fit in memory, not only in 64 bits.
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      error = "has a negative dim";
      return failure();
    }
    if (llvm::MulOverflow(count, d, count) || count > kMaxTensorElements) {
      error = "has dims of more than " + std::to_string(kMaxTensorElements) +
              " elements";
      return failure();
    }
  }
  auto type = RankedTensorType::get(dims, element);
  size_t bytes = count * byteWidth(element);
  std::string name = t.name().empty() ? "tensor" : t.name();
  if (unsigned bits = packedBits(element))
    return convertPackedTensor(t, type, bits, error);

  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    std::string location;
    uint64_t offset = 0, length = bytes;
    for (const auto &entry : t.external_data()) {
      bool bad = false;
      if (entry.key() == "location")
        location = entry.value();
      else if (entry.key() == "offset")
        bad = StringRef(entry.value()).getAsInteger(10, offset);
      else if (entry.key() == "length")
        bad = StringRef(entry.value()).getAsInteger(10, length);
      if (bad) {
        error = "has external data whose " + entry.key() + " '" +
                entry.value() + "' is not a whole number";
        return failure();
      }
    }
    if (location.empty() || length != bytes) {
      error = "has malformed external data (location '" + location +
              "', length " + std::to_string(length) + ", expected " +
              std::to_string(bytes) + ")";
      return failure();
    }
    SmallString<256> path;
    if (failed(resolveExternalData(modelDir, location, path, error)))
      return failure();
    llvm::sys::fs::file_status status;
    auto checkFile = [&](std::error_code ec) -> LogicalResult {
      if (ec)
        error = "has external data '" + std::string(path) +
                "' that cannot be read: " + ec.message();
      else if (!llvm::sys::fs::is_regular_file(status))
        error = "has external data '" + std::string(path) +
                "' that is not a regular file";
      return failure(ec || !llvm::sys::fs::is_regular_file(status));
    };
    // Checked before it is opened (opening a FIFO waits for a writer), and
    // again once open: the open file's size bounds what is read of it.
    if (failed(checkFile(llvm::sys::fs::status(path, status))))
      return failure();
    llvm::Expected<llvm::sys::fs::file_t> fd =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!fd) {
      (void)checkFile(llvm::errorToErrorCode(fd.takeError()));
      return failure();
    }
    auto close = llvm::make_scope_exit([&] { llvm::sys::fs::closeFile(*fd); });
    if (failed(checkFile(llvm::sys::fs::status(*fd, status))))
      return failure();
    uint64_t fileSize = status.getSize();
    if (offset > fileSize || length > fileSize - offset) {
      error = "has external data '" + std::string(path) + "' shorter than " +
              std::to_string(bytes) + " bytes at offset " +
              std::to_string(offset);
      return failure();
    }
    auto file = llvm::MemoryBuffer::getOpenFileSlice(*fd, path, length, offset,
                                                     /*IsVolatile=*/false);
    if (!file) {
      error = "has external data '" + std::string(path) +
              "' that cannot be read: " + file.getError().message();
      return failure();
    }
    std::unique_ptr<llvm::MemoryBuffer> buffer = std::move(*file);
    if (buffer->getBufferSize() != bytes) {
      error = "has external data '" + std::string(path) + "' shorter than " +
              std::to_string(bytes) + " bytes";
      return failure();
    }
    const char *data = buffer->getBufferStart();
    if (element.isInteger(1) || bytes <= kResourceThresholdBytes)
      return denseFromRaw(type, ArrayRef<char>(data, bytes));
    return makeResource(type, name, data, bytes, std::move(buffer));
  }

  if (t.has_raw_data()) {
    if (t.raw_data().size() != bytes) {
      error = "has " + std::to_string(t.raw_data().size()) +
              " bytes of raw data but its dims and type need " +
              std::to_string(bytes);
      return failure();
    }
    if (element.isInteger(1) || bytes <= kResourceThresholdBytes)
      return denseFromRaw(type, ArrayRef<char>(t.raw_data().data(), bytes));
    // Take the protobuf's buffer over instead of copying it.
    std::unique_ptr<std::string> owned(t.release_raw_data());
    const char *data = owned->data();
    return makeResource(type, name, data, bytes, std::move(owned));
  }

  std::vector<char> raw;
  if (failed(typedFieldBytes(t, element, count, raw, error)))
    return failure();
  return denseFromRaw(type, raw);
}

LogicalResult fillTensorProto(ElementsAttr attr, ::onnx::TensorProto &out,
                              std::string &error) {
  auto type = cast<ShapedType>(attr.getType());
  auto dtype = onnx::getONNXDType(type.getElementType());
  if (!dtype || !type.hasStaticShape()) {
    error =
        "cannot export a constant of type " + llvm::formatv("{0}", type).str();
    return failure();
  }
  out.set_data_type(*dtype);
  for (int64_t d : type.getShape())
    out.add_dims(d);
  if (auto strings = dyn_cast<DenseStringElementsAttr>(attr)) {
    for (StringRef v : strings.getValues<StringRef>())
      out.add_string_data(v.str());
    return success();
  }
  size_t width = byteWidth(type.getElementType());
  std::string *raw = out.mutable_raw_data();
  if (unsigned bits = packedBits(type.getElementType())) {
    // One value a byte in the attribute, packed in the file.
    SmallVector<uint8_t> values;
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
      AsmResourceBlob *blob = resource.getRawHandle().getBlob();
      if (!blob) {
        error = "has a dense resource without data";
        return failure();
      }
      values.assign(blob->getData().begin(), blob->getData().end());
    } else if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
      for (const APInt &v : dense.getValues<APInt>())
        values.push_back(static_cast<uint8_t>(v.getZExtValue()));
    } else {
      error = "has an unsupported constant attribute kind";
      return failure();
    }
    raw->assign(packedSize(values.size(), bits), 0);
    unsigned perByte = 8 / bits, mask = (1u << bits) - 1;
    for (auto [i, v] : llvm::enumerate(values))
      (*raw)[i / perByte] |=
          static_cast<char>((v & mask) << (i % perByte * bits));
    return success();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob) {
      error = "has a dense resource without data";
      return failure();
    }
    raw->assign(blob->getData().data(), blob->getData().size());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense) {
    error = "has an unsupported constant attribute kind";
    return failure();
  }
  int64_t count = type.getNumElements();
  if (type.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      raw->push_back(b ? 1 : 0);
    return success();
  }

  ArrayRef<char> data = dense.getRawData();
  if (dense.isSplat()) {
    raw->reserve(count * width);
    for (int64_t i = 0; i < count; ++i)
      raw->append(data.data(), width);
    return success();
  }
  raw->assign(data.data(), data.size());
  return success();
}

} // namespace onnxc::frontend
