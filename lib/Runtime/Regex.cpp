//===- Regex.cpp - RegexFullMatch through RE2 -----------------------------===//
//
// The runtime half of RegexFullMatch: each pattern is compiled once per
// process (an RE2 is immutable once built and safe to match from any
// thread), then matched against each string. In an archive of its own
// (libonnxc_regex.a) that the driver links, with RE2 and the C++ library,
// only into the models that use it.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "lib/Runtime/RuntimeInternal.h"
}

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {
/// The patterns compiled so far, by their text. Never freed: a model has a
/// few, and every run and session of the process reuses them.
struct RegexCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<RE2>> compiled;
};

RegexCache &regexCache() {
  static RegexCache *cache = new RegexCache;
  return *cache;
}
} // namespace

extern "C" int64_t onnxc_regex_compile(int64_t pattern) {
  size_t size = 0;
  const char *data = onnxcStringData(pattern, &size);
  std::string text(data, size);
  RegexCache &cache = regexCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  std::unique_ptr<RE2> &regex = cache.compiled[text];
  if (!regex) {
    RE2::Options options;
    options.set_log_errors(false);
    regex = std::make_unique<RE2>(text, options);
  }
  return regex->ok() ? (int64_t)(intptr_t)regex.get() : 0;
}

extern "C" bool onnxc_regex_full_match(int64_t regex, int64_t s) {
  if (!regex)
    return false;
  size_t size = 0;
  const char *data = onnxcStringData(s, &size);
  return RE2::FullMatch(re2::StringPiece(data, size),
                        *reinterpret_cast<const RE2 *>((intptr_t)regex));
}
