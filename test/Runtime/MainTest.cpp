//===- MainTest.cpp - Unit tests of onnxc_main, run in-process ------------===//

#include "FakeModels.h"
#include "TestUtils.h"

#include <catch2/catch.hpp>

#include <string>

using namespace onnxc::test;

namespace {
/// Writes the add model's two inputs of N rows into `dir` as .pb files.
std::vector<std::string> writeAddInputs(const TempDir &dir, int64_t n,
                                        const std::string &ext = ".pb") {
  std::vector<std::string> paths;
  for (int i = 0; i < 2; ++i) {
    std::vector<float> values(static_cast<size_t>(n) * 3);
    for (size_t k = 0; k < values.size(); ++k)
      values[k] = static_cast<float>(k) + 10.0f * static_cast<float>(i);
    onnxc_tensor *t = makeFloatTensor({n, 3}, values);
    std::string path = dir.file(std::string(i ? "b" : "a") + ext);
    onnxc_status status = ext == ".npy"
                              ? onnxc_tensor_write_npy(t, path.c_str())
                              : onnxc_tensor_write_pb(t, path.c_str(), "in");
    REQUIRE(status == ONNXC_OK);
    onnxc_tensor_free(t);
    paths.push_back(path);
  }
  return paths;
}

void checkSum(const std::string &path, int64_t n) {
  onnxc_tensor *out = onnxc_tensor_read(path.c_str());
  REQUIRE(out);
  CHECK(std::string(onnxc_tensor_name(out)) == "sum");
  CHECK(dimsOf(out) == std::vector<int64_t>{n, 3});
  std::vector<float> expected(static_cast<size_t>(n) * 3);
  for (size_t k = 0; k < expected.size(); ++k)
    expected[k] = 2.0f * static_cast<float>(k) + 10.0f;
  CHECK(floatValues(out) == expected);
  onnxc_tensor_free(out);
}
} // namespace

TEST_CASE("--info prints the signature as JSON", "[main]") {
  MainResult r = runMain(&fakeAddModel, {"--info"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  const std::string sig = "\"dtype\": \"float32\", \"shape\": [-1, 3], "
                          "\"dim_params\": [\"N\", null]}";
  CHECK(r.out == "{\"name\": \"fake_add\", \"abi_version\": 2, \"inputs\": "
                 "[{\"name\": \"a\", " +
                     sig + ", {\"name\": \"b\", " + sig +
                     "], \"outputs\": [{\"name\": \"sum\", " + sig + "]}\n");

  r = runMain(&fakeStridedModel, {"--info"});
  CHECK(r.code == 0);
  CHECK(r.out.find("{\"name\": \"x\", \"dtype\": \"float32\", \"shape\": [2, "
                   "3], \"dim_params\": [null, null]}") != std::string::npos);
}

TEST_CASE("onnxc_main writes the outputs as TensorProtos", "[main]") {
  TempDir in, out;
  for (const char *ext : {".pb", ".npy"}) {
    INFO(ext);
    std::vector<std::string> inputs = writeAddInputs(in, 4, ext);
    MainResult r = runMain(&fakeAddModel,
                           {"--output-dir", out.path(), inputs[0], inputs[1]});
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
    CHECK(out.entries() == std::vector<std::string>{"output_0.pb"});
    checkSum(out.file("output_0.pb"), 4);
  }
}

TEST_CASE("onnxc_main creates the output directory", "[main]") {
  TempDir in;
  std::vector<std::string> inputs = writeAddInputs(in, 2);
  std::string nested = in.file("x/y");
  MainResult r = runMain(&fakeAddModel, {inputs[0], "--output-dir=" + nested,
                                         inputs[1], "--threads", "2"});
  CHECK(r.code == 0);
  checkSum(nested + "/output_0.pb", 2);
}

TEST_CASE("--bench prints one JSON line and still writes outputs", "[main]") {
  TempDir in, out;
  std::vector<std::string> inputs = writeAddInputs(in, 3);
  MainResult r =
      runMain(&fakeAddModel, {"--bench", "5", "--threads", "2", "--output-dir",
                              out.path(), inputs[0], inputs[1]});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("{\"median_ms\": ", 0) == 0);
  CHECK(r.out.find(", \"min_ms\": ") != std::string::npos);
  CHECK(r.out.find(", \"iterations\": 5, \"threads\": 2}\n") !=
        std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  checkSum(out.file("output_0.pb"), 3);
}

TEST_CASE("onnxc_main reports errors with exit code 1", "[main]") {
  TempDir in, out;
  std::vector<std::string> inputs = writeAddInputs(in, 3);

  MainResult r =
      runMain(&fakeAddModel, {"--output-dir", out.path(), inputs[0]});
  CHECK(r.code == 1);
  CHECK(r.err == "error: expected 2 inputs but got 1\n");

  std::string missing = in.file("missing.pb");
  r = runMain(&fakeAddModel, {"--output-dir", out.path(), inputs[0], missing});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "error: cannot read '" + missing + "': No such file or directory\n");

  std::string bad = in.file("bad.pb");
  writeBytes(bad, key(1, 0) + "\x80");
  r = runMain(&fakeAddModel, {"--output-dir", out.path(), inputs[0], bad});
  CHECK(r.code == 1);
  CHECK(r.err == "error: '" + bad +
                     "' is not a valid TensorProto: truncated varint at byte "
                     "1\n");

  onnxc_tensor *wrong = makeFloatTensor({2, 3}, {});
  std::string other = in.file("other.pb");
  REQUIRE(onnxc_tensor_write_pb(wrong, other.c_str(), nullptr) == ONNXC_OK);
  onnxc_tensor_free(wrong);
  r = runMain(&fakeAddModel, {"--output-dir", out.path(), inputs[0], other});
  CHECK(r.code == 1);
  CHECK(r.err == "error: input 1 'b': dim 0 'N' is 2 but input 0 'a' has 'N' "
                 "= 3 (expected shape [N,3] but got [2,3])\n");
  CHECK(out.entries().empty());
}

TEST_CASE("onnxc_main refuses to overwrite an input", "[main]") {
  TempDir dir;
  std::vector<std::string> inputs = writeAddInputs(dir, 2);
  std::string clash = dir.file("output_0.pb");
  REQUIRE(std::rename(inputs[1].c_str(), clash.c_str()) == 0);
  std::string before = readBytes(clash);
  MainResult r = runMain(
      &fakeAddModel, {"--output-dir", dir.path() + "/./", inputs[0], clash});
  CHECK(r.code == 1);
  CHECK(r.err.rfind("error: refusing to overwrite input 1 '" + clash + "'",
                    0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(readBytes(clash) == before);
  CHECK(dir.entries() == std::vector<std::string>{"a.pb", "output_0.pb"});
}

TEST_CASE("onnxc_main usage errors exit with 2", "[main]") {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--frobnicate"},
        {"--threads", "many"},
        {"--threads", "-1"},
        {"--threads"},
        {"--bench", "0"},
        {"--bench", "3x"},
        {"--output-dir", ""},
        {"--profile", ""},
        {"--profile"},
        {"-x"}}) {
    INFO(args[0]);
    MainResult r = runMain(&fakeAddModel, args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(r.err.find("usage: model ") != std::string::npos);
    CHECK(r.out.empty());
  }
  MainResult r = runMain(&fakeAddModel, {"--frobnicate"});
  CHECK(r.err.rfind("error: unknown option '--frobnicate'\n", 0) == 0);

  r = runMain(&fakeAddModel, {"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("usage: model [--output-dir DIR] [--threads T] [--bench "
                    "N] [--profile PATH] [--info] [INPUT ...]\n",
                    0) == 0);
}
