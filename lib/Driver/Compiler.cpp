//===- Compiler.cpp - The C++ API behind onnx-compile and onnx-opt --------===//

#include "lib/Driver/Compiler.h"

#include "lib/Driver/CrashGuard.h"
#include "lib/Driver/InitAll.h"
#include "lib/Driver/ModelABI.h"
#include "passes/Conversion/Passes.h"
#include "passes/Pipelines/Pipelines.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;

namespace onnxc {

/// Moves the finished `temp` to `path`, removing `temp` on failure.
static LogicalResult renameIntoPlace(StringRef temp, StringRef path,
                                     std::string &error) {
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    error = "cannot write '" + path.str() + "': " + ec.message();
    return failure();
  }
  return success();
}

LogicalResult writeFileAtomically(StringRef path, StringRef contents,
                                  std::string &error) {
  SmallString<256> temp;
  int fd;
  std::string model = (path + ".tmp-%%%%%%").str();
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp)) {
    error =
        "cannot create a file next to '" + path.str() + "': " + ec.message();
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(temp);
      error = "cannot write '" + path.str() + "'";
      return failure();
    }
  }
  return renameIntoPlace(temp, path, error);
}

LogicalResult parseInputShape(StringRef spec, ImportOptions &options,
                              std::string &error) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty()) {
    error = "--input-shape expects NAME=D0xD1x... (got '" + spec.str() + "')";
    return failure();
  }
  SmallVector<int64_t> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0) {
      error = "--input-shape '" + spec.str() + "' has a bad dim '" +
              part.str() + "'";
      return failure();
    }
    shape.push_back(d);
  }
  if (dims == "scalar")
    shape.clear();
  options.inputShapes[name] = shape;
  return success();
}

/// `FILE: node 'NAME': ` for a location inside an imported model, else ``.
static std::string describeLocation(Location loc) {
  std::string node, file;
  loc->walk([&](Location l) {
    if (auto name = dyn_cast<NameLoc>(l); name && node.empty())
      node = name.getName().str();
    if (auto f = dyn_cast<FileLineColLoc>(l); f && file.empty())
      file = f.getFilename().str();
    return WalkResult::advance();
  });
  std::string out;
  if (!file.empty())
    out += file + ": ";
  if (!node.empty())
    out += "node '" + node + "': ";
  return out;
}

void prepareContext(MLIRContext &context) {
  DialectRegistry registry;
  registerONNXCDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
}

std::optional<std::string> formatDiagnostic(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error &&
      diag.getSeverity() != DiagnosticSeverity::Warning)
    return std::nullopt;
  std::string message = diag.str();
  std::replace(message.begin(), message.end(), '\n', ' ');
  return (diag.getSeverity() == DiagnosticSeverity::Error ? "error: "
                                                          : "warning: ") +
         describeLocation(diag.getLocation()) + message;
}

void configureContext(MLIRContext &context) {
  prepareContext(context);
  context.getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (std::optional<std::string> line = formatDiagnostic(diag))
      llvm::errs() << *line << "\n";
    return success();
  });
}

DiagnosticCollector::DiagnosticCollector(MLIRContext &context)
    : handler(&context, [this](Diagnostic &diag) {
        if (std::optional<std::string> line = formatDiagnostic(diag))
          collected.push_back(std::move(*line));
        return success();
      }) {}

std::string DiagnosticCollector::firstError() const {
  for (const std::string &line : collected)
    if (StringRef(line).starts_with("error: "))
      return line;
  return "";
}

/// A C identifier made of the file name stem.
static std::string symbolFromPath(StringRef path) {
  std::string stem = llvm::sys::path::stem(path).str();
  if (StringRef(stem).starts_with("lib"))
    stem = stem.substr(3);
  for (char &c : stem)
    if (!llvm::isAlnum(c))
      c = '_';
  if (stem.empty() || llvm::isDigit(stem[0]))
    stem = "m" + stem;
  return stem;
}

std::string runtimeDirectory(const CompileOptions &options) {
  SmallString<256> dir;
  if (!options.runtimeDir.empty()) {
    dir = options.runtimeDir;
  } else if (const char *env = std::getenv("ONNXC_RUNTIME_DIR")) {
    dir = env;
  } else {
    static int anchor;
    std::string exe = llvm::sys::fs::getMainExecutable("onnx-compile", &anchor);
    dir = llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "lib", "onnxc");
  }
  return std::string(dir);
}

/// Runs `program args...`, reporting its failure through `error`.
static LogicalResult runTool(StringRef program, ArrayRef<std::string> args,
                             std::string &error) {
  auto path = llvm::sys::findProgramByName(program);
  if (!path) {
    error = "cannot find '" + program.str() + "' to link with";
    return failure();
  }
  SmallVector<StringRef> argv{*path};
  for (const std::string &a : args)
    argv.push_back(a);
  std::string message;
  int rc =
      llvm::sys::ExecuteAndWait(*path, argv, std::nullopt, {}, 0, 0, &message);
  if (rc != 0) {
    error = "'" + program.str() + "' failed" +
            (message.empty() ? " with exit code " + std::to_string(rc)
                             : ": " + message);
    return failure();
  }
  return success();
}

/// The archive of `name` in the runtime directory of the target, or an
/// error naming `what` needs it when it is missing.
static std::optional<std::string> runtimeArchive(const CompileOptions &options,
                                                 StringRef name, StringRef what,
                                                 std::string &error) {
  SmallString<256> path(runtimeDirectory(options));
  llvm::sys::path::append(path, archName(options.target.arch), name);
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  error = (what + " needs '" + path + "', which is not part of onnxc's " +
           archName(options.target.arch) + " runtime")
              .str();
  return std::nullopt;
}

namespace {
/// A part of the runtime that brings libraries of its own, linked only into
/// the models that call one of its functions. Host only: the aarch64 cross
/// build has none of their libraries.
struct RuntimePart {
  StringRef archive;
  ArrayRef<StringRef> functions;
  ArrayRef<StringRef> libraries;
  /// What needs it, for messages; and for a library's header.
  StringRef what, uses;
};
} // namespace

static constexpr StringRef kRegexFunctions[] = {"onnxc_regex_compile",
                                                "onnxc_regex_full_match"};
static constexpr StringRef kRegexLibraries[] = {"-lre2", "-lstdc++"};
static constexpr StringRef kImageFunctions[] = {"onnxc_image_decode"};
static constexpr StringRef kImageLibraries[] = {"-ljpeg", "-lpng16", "-ltiff",
                                                "-lwebp", "-lopenjp2"};
static const RuntimePart kRuntimeParts[] = {
    {"libonnxc_regex.a", kRegexFunctions, kRegexLibraries,
     "the model's RegexFullMatch (regular expressions, through RE2)",
     "matches regular expressions"},
    {"libonnxc_image.a", kImageFunctions, kImageLibraries,
     "the model's ImageDecoder (through the image libraries)",
     "decodes images"},
};

/// The parts of the runtime whose functions `module` calls.
static SmallVector<const RuntimePart *>
runtimePartsOf(const llvm::Module &module) {
  SmallVector<const RuntimePart *> parts;
  for (const RuntimePart &part : kRuntimeParts)
    if (llvm::any_of(part.functions, [&](StringRef name) {
          const llvm::Function *f = module.getFunction(name);
          return f && !f->use_empty();
        }))
      parts.push_back(&part);
  return parts;
}

/// Links `object` with the runtime, the CPU kernels and `parts` into an
/// executable or shared library at `output` (through a temporary name).
static LogicalResult link(const CompileOptions &options, StringRef object,
                          StringRef output, bool shared,
                          ArrayRef<const RuntimePart *> parts,
                          std::string &error) {
  SmallString<256> runtime(runtimeDirectory(options));
  llvm::sys::path::append(runtime, archName(options.target.arch));
  SmallString<256> runtimeLib(runtime), kernelsLib(runtime), mainLib(runtime);
  llvm::sys::path::append(runtimeLib, "libonnxc_runtime.a");
  llvm::sys::path::append(kernelsLib, "libonnxc_kernels.a");
  llvm::sys::path::append(mainLib, "libonnxc_main.a");
  for (StringRef lib : {runtimeLib.str(), kernelsLib.str()}) {
    if (!llvm::sys::fs::exists(lib)) {
      error = "the onnxc runtime for " + archName(options.target.arch).str() +
              " is missing ('" + lib.str() + "')";
      return failure();
    }
  }
  SmallVector<std::string> partLibs;
  for (const RuntimePart *part : parts) {
    std::optional<std::string> lib =
        runtimeArchive(options, part->archive, part->what, error);
    if (!lib)
      return failure();
    partLibs.push_back(*lib);
  }
  // The GPU build adds the CUDA driver glue (libcuda is dlopen'ed at run
  // time: nothing links against CUDA).
  bool gpu = !options.target.gpu.empty();
  SmallString<256> gpuLib(runtime);
  llvm::sys::path::append(gpuLib, "libonnxc_gpu.a");
  if (gpu && !llvm::sys::fs::exists(gpuLib)) {
    error = "the onnxc GPU runtime is missing ('" + std::string(gpuLib) + "')";
    return failure();
  }
#ifdef ONNXC_HOST_LINKER
  // A sanitizer build: its runtime archives need the sanitizer runtimes.
  const char *hostLinker = ONNXC_HOST_LINKER;
  const char *hostFlags = ONNXC_HOST_LINK_FLAGS;
#else
  const char *hostLinker = "cc";
  const char *hostFlags = nullptr;
#endif
  bool host = options.target.arch == hostArch();
  std::string linker =
      host ? hostLinker
           : archName(options.target.arch).str() + "-linux-gnu-gcc";
  std::string temp = (output + ".tmp-link").str();
  // An explicit content-derived build id: the same object and runtime give
  // the same bytes whatever the linker's default.
  std::vector<std::string> args{"-o", temp, object.str(),
                                "-Wl,--build-id=sha1"};
  if (host && hostFlags)
    args.push_back(hostFlags);
  if (shared) {
    // The library exports the whole runtime API, not just what the model uses.
    args.insert(args.begin(), "-shared");
    args.push_back("-Wl,--whole-archive");
    if (gpu)
      args.push_back(std::string(gpuLib));
    llvm::append_range(args, partLibs);
    args.push_back(std::string(kernelsLib));
    args.push_back(std::string(runtimeLib));
    args.push_back("-Wl,--no-whole-archive");
  } else {
    // The kernels before the runtime, whose thread pool they call.
    args.push_back(std::string(mainLib));
    if (gpu)
      args.push_back(std::string(gpuLib));
    llvm::append_range(args, partLibs);
    args.push_back(std::string(kernelsLib));
    args.push_back(std::string(runtimeLib));
  }
  for (const RuntimePart *part : parts)
    for (StringRef lib : part->libraries)
      args.push_back(lib.str());
  for (const char *lib : {"-lm", "-lpthread"})
    args.push_back(lib);
  if (gpu)
    args.push_back("-ldl");
  if (failed(runTool(linker, args, error))) {
    llvm::sys::fs::remove(temp);
    return failure();
  }
  return renameIntoPlace(temp, output, error);
}

/// A static archive of the model object and the runtime's members.
static LogicalResult writeStaticLibrary(const CompileOptions &options,
                                        StringRef object, StringRef output,
                                        ArrayRef<const RuntimePart *> parts,
                                        std::string &error) {
  std::vector<llvm::NewArchiveMember> members;
  auto model = llvm::NewArchiveMember::getFile(object, /*Deterministic=*/true);
  if (!model) {
    error = llvm::toString(model.takeError());
    return failure();
  }
  // A plain member name: a path's slashes would corrupt the GNU name table.
  std::string memberName = symbolFromPath(output) + "_model.o";
  model->MemberName = memberName;
  members.push_back(std::move(*model));
  // The members of the runtime archives (the GPU glue first, for a GPU
  // build, then the kernels); the buffers must outlive writeArchive.
  SmallVector<std::string> archives;
  if (!options.target.gpu.empty())
    archives.push_back("libonnxc_gpu.a");
  for (const RuntimePart *part : parts) {
    if (!runtimeArchive(options, part->archive, part->what, error))
      return failure();
    archives.push_back(part->archive.str());
  }
  archives.push_back("libonnxc_kernels.a");
  archives.push_back("libonnxc_runtime.a");
  SmallVector<std::unique_ptr<llvm::MemoryBuffer>> buffers;
  SmallVector<std::unique_ptr<llvm::object::Archive>> opened;
  for (const std::string &name : archives) {
    SmallString<256> runtimeLib(runtimeDirectory(options));
    llvm::sys::path::append(runtimeLib, archName(options.target.arch), name);
    auto buffer = llvm::MemoryBuffer::getFile(runtimeLib);
    if (!buffer) {
      error = "cannot read the runtime '" + std::string(runtimeLib) + "'";
      return failure();
    }
    auto archive = llvm::object::Archive::create((*buffer)->getMemBufferRef());
    if (!archive) {
      error = "the runtime '" + std::string(runtimeLib) + "' is not an archive";
      llvm::consumeError(archive.takeError());
      return failure();
    }
    buffers.push_back(std::move(*buffer));
    opened.push_back(std::move(*archive));
    llvm::Error err = llvm::Error::success();
    for (const llvm::object::Archive::Child &child :
         opened.back()->children(err)) {
      auto member =
          llvm::NewArchiveMember::getOldMember(child, /*Deterministic=*/true);
      if (!member) {
        error = llvm::toString(member.takeError());
        llvm::consumeError(std::move(err));
        return failure();
      }
      members.push_back(std::move(*member));
    }
    if (err) {
      error = llvm::toString(std::move(err));
      return failure();
    }
  }
  std::string temp = (output + ".tmp-ar").str();
  if (llvm::Error e = llvm::writeArchive(
          temp, members, llvm::SymtabWritingMode::NormalSymtab,
          llvm::object::Archive::K_GNU,
          /*Deterministic=*/true, /*Thin=*/false)) {
    error = llvm::toString(std::move(e));
    llvm::sys::fs::remove(temp);
    return failure();
  }
  return renameIntoPlace(temp, output, error);
}

/// The C header of a library: the model descriptor and the runtime API.
static std::string libraryHeader(StringRef symbol, const ModelSignature &sig,
                                 ArrayRef<const RuntimePart *> parts) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string guard = llvm::StringRef(symbol).upper() + "_H";
  os << "/* " << symbol << ".h - generated by onnx-compile; do not edit. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"onnxc_runtime.h\"\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* Inputs:";
  for (const auto &t : sig.inputs)
    os << " " << t.name;
  os << "\n   Outputs:";
  for (const auto &t : sig.outputs)
    os << " " << t.name;
  os << "\n   Run it with onnxc_session_create(&" << symbol
     << "_model, threads).";
  for (const RuntimePart *part : parts) {
    os << "\n   It " << part->uses << ": link the static library with";
    for (StringRef lib : part->libraries)
      os << " " << lib;
    os << ".";
  }
  os << " */\n"
     << "extern const onnxc_model_desc " << symbol << "_model;\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return text;
}

/// Copies the runtime's public header to `to` (next to a library's).
static LogicalResult copyRuntimeHeader(const CompileOptions &options,
                                       StringRef to, std::string &error) {
  SmallString<256> from(runtimeDirectory(options));
  llvm::sys::path::append(from, "include", "onnxc_runtime.h");
  auto buffer = llvm::MemoryBuffer::getFile(from);
  if (!buffer) {
    error = "cannot read the runtime header '" + std::string(from) + "'";
    return failure();
  }
  return writeFileAtomically(to, (*buffer)->getBuffer(), error);
}

namespace {
/// Times consecutive stages of a compile into `CompileStats::stageMs`.
class StageClock {
public:
  explicit StageClock(CompileStats *stats) : stats(stats) {}
  ~StageClock() { stop(); }
  /// Ends the running stage, if any, and starts `stage`.
  void start(StringRef stage) {
    stop();
    noteCompileStage(stage);
    current = stage.str();
    begin = std::chrono::steady_clock::now();
  }
  void stop() {
    if (!stats || current.empty())
      return;
    std::chrono::duration<double, std::milli> ms =
        std::chrono::steady_clock::now() - begin;
    stats->stageMs.emplace_back(std::move(current), ms.count());
    current.clear();
  }

private:
  CompileStats *stats;
  std::string current;
  std::chrono::steady_clock::time_point begin;
};

} // namespace

std::error_code ScratchDirectory::create() {
  SmallString<256> prefix;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, prefix);
  llvm::sys::path::append(prefix, "onnxc");
  return llvm::sys::fs::createUniqueDirectory(prefix, path);
}

ScratchDirectory::~ScratchDirectory() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::string ScratchDirectory::file(StringRef name) const {
  SmallString<256> result(path);
  llvm::sys::path::append(result, name);
  return std::string(result);
}

LogicalResult compileModel(const CompileOptions &options, MLIRContext &context,
                           CompileStats *stats) {
  Location fileLoc = FileLineColLoc::get(&context, options.input, 0, 0);
  auto fail = [&](const Twine &message) {
    emitError(fileLoc) << message;
    return failure();
  };
  auto wrote = [&](StringRef path) {
    if (stats)
      stats->outputs.push_back(path.str());
  };
  // Writes `contents` to `path` and records it as an output.
  std::string error;
  auto writeOutput = [&](StringRef path, StringRef contents) {
    if (failed(writeFileAtomically(path, contents, error)))
      return failure();
    wrote(path);
    return success();
  };
  bool same = false;
  if (!llvm::sys::fs::equivalent(options.input, options.output, same) && same)
    return fail("refusing to overwrite the input model with the output");
  if (!options.target.gpu.empty()) {
    std::string why =
        checkGPUPrecision(options.target.gpu, options.target.gpuPrecision);
    if (!why.empty())
      return fail(why);
    if (options.profile)
      return fail("--profile times CPU code only (not the nvptx target)");
  }
  StageClock clock(stats);
  clock.start("import");
  ImportOptions import = options.import;
  import.onNode = noteImportNode;
  // The CPU's kernel ops; GPU code keeps their expansions in onnx ops.
  import.cpuKernelOps = options.target.gpu.empty();
  OwningOpRef<ModuleOp> module = importONNXModel(
      options.input, &context, import, stats ? &stats->opCounts : nullptr);
  if (!module)
    return failure();

  clock.start("optimize");
  PassManager optimize(&context);
  // Attention is fused for the CPU lowering, which calls the runtime's
  // kernel (GPU kernels come from loops).
  buildONNXOptimizePipeline(optimize, options.target.optLevel,
                            ActivationFusion::None,
                            /*fuseAttention=*/options.target.gpu.empty());
  if (failed(optimize.run(*module)))
    return failure();
  if (options.emit == EmitKind::MLIR) {
    clock.start("codegen");
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    if (failed(writeOutput(options.output, text)))
      return fail(error);
    return success();
  }

  clock.start("lower");
  auto func = module->lookupSymbol<func::FuncOp>(kMainGraphName);
  FailureOr<ModelSignature> signature = getModelSignature(func);
  if (failed(signature))
    return failure();
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));
  // The names now live in the signature; LLVM has no use for them.
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttrs(i, ArrayRef<NamedAttribute>{});
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    func.setResultAttrs(i, ArrayRef<NamedAttribute>{});

  bool gpu = !options.target.gpu.empty();
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options.target, error);
  if (!machine)
    return fail(error);
  // Constant matmul operands are packed for the kernel this CPU will run.
  if (!gpu)
    (*module)->setAttr(onnxc::kGemmIsaAttrName,
                       StringAttr::get(&context, gemmIsaName(*machine)));
  PassManager lower(&context);
  // The onnx optimizer already ran above: level 0 below.
  if (gpu) {
    NVVMPipelineOptions nvvm;
    nvvm.level = 0;
    nvvm.chip = options.target.gpu;
    nvvm.features = ptxFeatures(options.target.gpu);
    nvvm.optLevel = options.target.optLevel;
    nvvm.precision = options.target.gpuPrecision;
    buildONNXLowerToNVVMPipeline(lower, nvvm);
  } else {
    buildONNXLowerToLLVMPipeline(lower, /*level=*/0,
                                 /*parallelLoops=*/options.target.optLevel >= 2,
                                 options.profile);
  }
  if (failed(lower.run(*module)))
    return failure();
  if (gpu && options.emit == EmitKind::Asm) {
    // The kernels' PTX (the host code is of no interest here).
    clock.start("codegen");
    std::string ptx;
    module->walk([&](gpu::BinaryOp binary) {
      for (Attribute object : binary.getObjects())
        if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
          // The embedded PTX ends in a NUL for the driver.
          ptx += gpuObject.getObject().getValue().rtrim('\0');
    });
    if (failed(writeOutput(options.output, ptx)))
      return fail(error);
    return success();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "onnxc");
  if (!llvmModule)
    return fail("cannot translate the lowered model to LLVM IR");

  clock.start("codegen");
  llvmModule->setTargetTriple(machine->getTargetTriple().str());
  llvmModule->setDataLayout(machine->createDataLayout());

  bool isExe = options.emit == EmitKind::Exe;
  std::string symbol = isExe ? "onnxc_default_model"
                       : options.libraryName.empty()
                           ? symbolFromPath(options.output) + "_model"
                           : options.libraryName + "_model";
  emitModelABI(*llvmModule, *signature, symbol, gpu);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("internal error: the translated model is not valid LLVM IR");
  optimizeModule(*llvmModule, *machine, options.target.optLevel);

  if (options.emit == EmitKind::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    if (failed(writeOutput(options.output, text)))
      return fail(error);
    return success();
  }
  bool asmText = options.emit == EmitKind::Asm;
  if (asmText || options.emit == EmitKind::Obj) {
    SmallString<0> code;
    llvm::raw_svector_ostream os(code);
    if (!emitMachineCode(*llvmModule, *machine,
                         asmText ? llvm::CodeGenFileType::AssemblyFile
                                 : llvm::CodeGenFileType::ObjectFile,
                         os, error))
      return fail(error);
    if (failed(writeOutput(options.output, code)))
      return fail(error);
    return success();
  }

  // Executables and libraries: link through an object in a private
  // directory, under a fixed name so that no random path can reach the
  // output. The object is written there as it is emitted, not kept in
  // memory: it holds the weights, and the compiler holds them twice already
  // (the MLIR resources and the LLVM module).
  ScratchDirectory scratch;
  if (std::error_code ec = scratch.create())
    return fail("cannot create a temporary directory: " + ec.message());
  std::string object = scratch.file("model.o");
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(object, ec);
    if (ec)
      return fail("cannot create '" + object + "': " + ec.message());
    if (!emitMachineCode(*llvmModule, *machine,
                         llvm::CodeGenFileType::ObjectFile, file, error))
      return fail(error);
    file.close();
    if (file.has_error())
      return fail("cannot write '" + object + "': " + file.error().message());
  }
  // RegexFullMatch and ImageDecoder come with their libraries.
  SmallVector<const RuntimePart *> parts = runtimePartsOf(*llvmModule);
  llvmModule.reset();
  clock.start("link");
  if (isExe) {
    if (failed(link(options, object, options.output, /*shared=*/false, parts,
                    error)))
      return fail(error);
    wrote(options.output);
    return success();
  }
  std::string base = options.output;
  for (StringRef ext : {".so", ".a", ".h"})
    if (StringRef(base).ends_with(ext))
      base.resize(base.size() - ext.size());
  std::string libSymbol = symbol.substr(0, symbol.size() - strlen("_model"));
  SmallString<256> dir(llvm::sys::path::parent_path(base));
  if (dir.empty())
    dir = ".";
  if (failed(
          link(options, object, base + ".so", /*shared=*/true, parts, error)))
    return fail(error);
  wrote(base + ".so");
  if (failed(writeStaticLibrary(options, object, base + ".a", parts, error)))
    return fail(error);
  wrote(base + ".a");
  if (failed(writeOutput(base + ".h",
                         libraryHeader(libSymbol, *signature, parts))))
    return fail(error);
  SmallString<256> runtimeHeader(dir);
  llvm::sys::path::append(runtimeHeader, "onnxc_runtime.h");
  if (failed(copyRuntimeHeader(options, runtimeHeader, error)))
    return fail(error);
  wrote(runtimeHeader);
  return success();
}

LogicalResult optimizeModel(StringRef input, StringRef output,
                            const ImportOptions &importOptions,
                            unsigned optLevel, bool fuseActivations,
                            MLIRContext &context, CompileStats *stats,
                            const QuantizeOptions &quantize) {
  StageClock clock(stats);
  clock.start("import");
  bool toMLIR = output.ends_with(".mlir");
  ImportOptions import = importOptions;
  import.onNode = noteImportNode;
  // ONNX output writes the CPU's kernel ops as their expansions.
  import.cpuKernelOps = toMLIR;
  OwningOpRef<ModuleOp> module = importONNXModel(
      input, &context, import, stats ? &stats->opCounts : nullptr);
  if (!module)
    return failure();
  if (stats)
    stats->imported = computeGraphStats(*module);
  clock.start("optimize");
  PassManager pm(&context);
  // Quantization reads Conv, Gemm and MatMul, not their fused forms.
  bool quantizing = quantize.mode != QuantizeMode::None;
  buildONNXOptimizePipeline(pm, optLevel,
                            quantizing        ? ActivationFusion::None
                            : toMLIR          ? ActivationFusion::All
                            : fuseActivations ? ActivationFusion::ORTCompatible
                                              : ActivationFusion::None,
                            /*fuseAttention=*/toMLIR,
                            /*specializeIfRanks=*/toMLIR);
  if (failed(pm.run(*module)))
    return failure();
  if (quantizing) {
    clock.start("quantize");
    if (failed(quantizeModel(*module, quantize, optLevel)))
      return failure();
  }
  if (stats)
    stats->optimized = computeGraphStats(*module);
  clock.start("export");
  if (toMLIR) {
    std::string text, error;
    llvm::raw_string_ostream os(text);
    module->print(os);
    if (failed(writeFileAtomically(output, text, error))) {
      emitError(module->getLoc()) << error;
      return failure();
    }
  } else if (failed(exportONNXModel(*module, output))) {
    return failure();
  }
  if (stats)
    stats->outputs.push_back(output.str());
  return success();
}

} // namespace onnxc
