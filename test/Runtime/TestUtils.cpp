//===- TestUtils.cpp - Helpers shared by the runtime unit tests -----------===//

#include "TestUtils.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace onnxc::test {

TempDir::TempDir() {
  std::string templ = (fs::temp_directory_path() / "onnxc-rt-XXXXXX").string();
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::runtime_error("cannot create a temporary directory");
  dir = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool fileExists(const std::string &path) { return fs::exists(path); }

std::string varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}

std::string key(unsigned field, unsigned wireType) {
  return varint((uint64_t(field) << 3) | wireType);
}

std::string fixed32(uint32_t value) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}

std::string fixed64(uint64_t value) {
  std::string out;
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return out;
}

std::string lengthDelimited(unsigned field, const std::string &payload) {
  return key(field, 2) + varint(payload.size()) + payload;
}

namespace {
/// Points file descriptor `fd` at a fresh temporary file until restored.
class Redirect {
public:
  Redirect(int fd, std::FILE *stream) : fd(fd), stream(stream) {
    std::fflush(stream);
    file = std::tmpfile();
    saved = dup(fd);
    dup2(fileno(file), fd);
  }
  std::string finish() {
    std::fflush(stream);
    dup2(saved, fd);
    close(saved);
    std::string text;
    std::rewind(file);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), file)) > 0)
      text.append(buf, n);
    std::fclose(file);
    return text;
  }

private:
  int fd;
  std::FILE *stream;
  std::FILE *file;
  int saved;
};
} // namespace

MainResult runMain(const onnxc_model_desc *model,
                   const std::vector<std::string> &args) {
  std::vector<std::string> storage = {"model"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (auto &arg : storage)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  Redirect out(STDOUT_FILENO, stdout);
  Redirect err(STDERR_FILENO, stderr);
  int code = onnxc_main(model, static_cast<int>(storage.size()), argv.data());
  MainResult result;
  result.code = code;
  result.err = err.finish();
  result.out = out.finish();
  return result;
}

onnxc_tensor *makeFloatTensor(const std::vector<int64_t> &dims,
                              const std::vector<float> &values) {
  onnxc_tensor *t = onnxc_tensor_create(
      ONNXC_DTYPE_FLOAT, static_cast<int32_t>(dims.size()), dims.data());
  if (t && !values.empty())
    std::memcpy(onnxc_tensor_data(t), values.data(),
                values.size() * sizeof(float));
  return t;
}

std::vector<float> floatValues(const onnxc_tensor *tensor) {
  const float *data = static_cast<const float *>(onnxc_tensor_data(tensor));
  return std::vector<float>(data, data + onnxc_tensor_numel(tensor));
}

std::vector<int64_t> dimsOf(const onnxc_tensor *tensor) {
  const int64_t *dims = onnxc_tensor_dims(tensor);
  return std::vector<int64_t>(dims, dims + onnxc_tensor_rank(tensor));
}

} // namespace onnxc::test
