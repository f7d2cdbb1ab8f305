//===- TestUtils.h - Helpers shared by the runtime unit tests -------------===//

#ifndef ONNXC_TEST_RUNTIME_TESTUTILS_H
#define ONNXC_TEST_RUNTIME_TESTUTILS_H

#include "onnxc_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace onnxc::test {

/// A fresh directory under $TMPDIR, removed with its contents on scope exit.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }
  /// The names of the entries in the directory, sorted.
  std::vector<std::string> entries() const;

private:
  std::string dir;
};

void writeBytes(const std::string &path, const std::string &bytes);
std::string readBytes(const std::string &path);
bool fileExists(const std::string &path);

/// Protobuf wire-format builders for hand-made TensorProtos.
std::string varint(uint64_t value);
std::string key(unsigned field, unsigned wireType);
std::string fixed32(uint32_t value);
std::string fixed64(uint64_t value);
std::string lengthDelimited(unsigned field, const std::string &payload);

/// What onnxc_main returned and printed.
struct MainResult {
  int code;
  std::string out;
  std::string err;
};

/// Runs onnxc_main in-process with argv = {"model", args...}, capturing
/// stdout and stderr.
MainResult runMain(const onnxc_model_desc *model,
                   const std::vector<std::string> &args);

/// A tensor of `dims` holding `values`, owned by the caller.
onnxc_tensor *makeFloatTensor(const std::vector<int64_t> &dims,
                              const std::vector<float> &values);
std::vector<float> floatValues(const onnxc_tensor *tensor);
std::vector<int64_t> dimsOf(const onnxc_tensor *tensor);

} // namespace onnxc::test

#endif // ONNXC_TEST_RUNTIME_TESTUTILS_H
