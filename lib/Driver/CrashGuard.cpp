//===- CrashGuard.cpp - Internal errors contained, reported, not fatal ----===//
//
// Built with exceptions (a stray C++ exception is an internal error too).
//
// LLVM's CrashRecoveryContext catches the crash signals and, through the
// fatal-error handler below, LLVM's fatal errors; it jumps back into
// RunSafely on the thread that crashed, so one batch worker's crash leaves
// the others running. Two things are added to it:
// - a signal stack per thread and SA_ONSTACK on its handlers, so that a
//   stack overflow (deep recursion on a deeply nested model) reaches the
//   handler instead of killing the process;
// - the site of the compile (stage, pass, node), kept per thread.
//
//===----------------------------------------------------------------------===//

#include "lib/Driver/CrashGuard.h"

#include "lib/Driver/Compiler.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>

using namespace mlir;

namespace onnxc {

namespace {
/// Where the compile on this thread is.
struct CompileSite {
  /// The model's file name.
  std::string model;
  std::string stage;
  std::string node;
  std::string pass;
  /// The op a pattern last rewrote (kept as its location: the op itself
  /// may be gone when the crash is reported, its location is not).
  std::optional<Location> rewritten;
  /// What LLVM's fatal-error handler was told, if it ran.
  std::string fatalReason;
  /// Set while runContained runs on this thread.
  bool contained = false;
};

thread_local CompileSite site;

/// Routes LLVM fatal errors inside runContained to the crash recovery (a
/// fatal error that asks for no crash report would otherwise exit(1)).
void onFatalError(void *, const char *reason, bool genCrashDiag) {
  if (site.contained)
    if (llvm::CrashRecoveryContext *crc =
            llvm::CrashRecoveryContext::GetCurrent()) {
      site.fatalReason = reason;
      crc->HandleExit(1);
    }
  // What LLVM does without a handler.
  llvm::errs() << "LLVM ERROR: " << reason << "\n";
  llvm::sys::RunInterruptHandlers();
  if (genCrashDiag)
    std::abort();
  std::exit(1);
}

/// Crash recovery with its handlers on the signal stack, once per process.
void enableCrashRecovery() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    for (int signal : {SIGSEGV, SIGBUS}) {
      struct sigaction action;
      if (sigaction(signal, nullptr, &action) == 0) {
        action.sa_flags |= SA_ONSTACK;
        sigaction(signal, &action, nullptr);
      }
    }
    llvm::install_fatal_error_handler(onFatalError);
  });
}

/// A signal stack for this thread unless it has one, freed (after being
/// unregistered) as the thread ends.
void ensureSignalStack() {
  struct ThreadSignalStack {
    std::unique_ptr<char[]> memory;
    ~ThreadSignalStack() {
      if (!memory)
        return;
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
  };
  thread_local ThreadSignalStack own;
  stack_t current;
  if (own.memory ||
      (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)))
    return;
  constexpr size_t kSize = 256 * 1024;
  own.memory = std::make_unique<char[]>(kSize);
  stack_t stack{};
  stack.ss_sp = own.memory.get();
  stack.ss_size = kSize;
  if (sigaltstack(&stack, nullptr) != 0)
    own.memory.reset();
}

/// $ONNXC_FORCE_INTERNAL_ERROR=KIND:WHERE[:FILE], for the model on this
/// thread reaching `where` (a stage, a pass at an op it rewrites, or
/// import-node).
void maybeForceInternalError(StringRef where) {
  static const char *spec = std::getenv("ONNXC_FORCE_INTERNAL_ERROR");
  if (!spec || !site.contained)
    return;
  SmallVector<StringRef> parts;
  StringRef(spec).split(parts, ':');
  if (parts.size() < 2 || parts[1] != where ||
      (parts.size() > 2 && parts[2] != site.model))
    return;
  StringRef kind = parts[0];
  if (kind == "segv") {
    volatile int *null = nullptr;
    *null = 1;
  } else if (kind == "abort") {
    std::abort();
  } else if (kind == "fatal") {
    llvm::report_fatal_error("forced internal error",
                             /*gen_crash_diag=*/false);
  } else if (kind == "exception") {
    throw std::runtime_error("forced internal error");
  } else if (kind == "overflow") {
    // Recursion the optimizer cannot turn into a loop.
    std::function<int(int)> recurse = [&](int depth) {
      volatile char frame[4096];
      frame[0] = static_cast<char>(depth);
      return recurse(depth + 1) + frame[0];
    };
    recurse(0);
  }
}

std::string describeSite(StringRef model, StringRef what) {
  std::string line = "internal error while compiling " + model.str() +
                     " at stage " + (site.stage.empty() ? "start" : site.stage);
  std::string node = site.node;
  if (site.rewritten)
    node = onnx::getNodeName(*site.rewritten).str();
  SmallVector<std::string, 2> details;
  if (!site.pass.empty())
    details.push_back("pass " + site.pass);
  if (!node.empty())
    details.push_back("node '" + node + "'");
  if (!details.empty())
    line += " (" + llvm::join(details, ", ") + ")";
  return line + ": " + what.str() + "; please report";
}
} // namespace

std::optional<std::string> runContained(StringRef model,
                                        llvm::function_ref<void()> compile) {
  enableCrashRecovery();
  ensureSignalStack();
  site = CompileSite();
  site.model = llvm::sys::path::filename(model).str();
  site.contained = true;
  std::string exception;
  llvm::CrashRecoveryContext crc;
  crc.DumpStackAndCleanupOnFailure = true;
  bool returned = crc.RunSafely([&] {
    try {
      compile();
    } catch (const std::exception &e) {
      exception = e.what();
    } catch (...) {
      exception = "unknown exception";
    }
  });
  site.contained = false;
  std::string what;
  if (!returned) {
    int signal = crc.RetCode - 128;
    if (!site.fatalReason.empty())
      what = "LLVM fatal error: " + site.fatalReason;
    else if (crc.RetCode > 128 && signal < NSIG)
      what = "signal " + std::to_string(signal) + " (" +
             std::string(strsignal(signal)) + ")";
    else
      what = "exit code " + std::to_string(crc.RetCode);
  } else if (!exception.empty()) {
    what = "uncaught exception: " + exception;
  } else {
    return std::nullopt;
  }
  return describeSite(model, what);
}

int runToolCompile(StringRef model,
                   function_ref<LogicalResult(MLIRContext &)> compile) {
  auto context =
      std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  configureContext(*context);
  trackCompileSite(*context);
  LogicalResult status = failure();
  std::optional<std::string> internalError =
      runContained(model, [&] { status = compile(*context); });
  if (internalError) {
    llvm::errs() << "error: " << *internalError << "\n";
    // The context may be in any state: leave it be.
    (void)context.release();
    return kInternalErrorExitCode;
  }
  return succeeded(status) ? 0 : 1;
}

void noteCompileStage(StringRef stage) {
  site.stage = stage.str();
  site.node.clear();
  site.pass.clear();
  site.rewritten.reset();
  maybeForceInternalError(stage);
}

void noteImportNode(StringRef node) {
  site.node = node.str();
  maybeForceInternalError("import-node");
}

void trackCompileSite(MLIRContext &context) {
  context.registerActionHandler(
      [](llvm::function_ref<void()> transform, const tracing::Action &action) {
        if (auto *pass = dyn_cast<PassExecutionAction>(&action)) {
          site.pass = pass->getPass().getArgument().str();
          if (site.pass.empty())
            site.pass = pass->getPass().getName().str();
          site.rewritten.reset();
        } else if (!site.pass.empty()) {
          for (IRUnit unit : action.getContextIRUnits())
            if (auto *op = dyn_cast<Operation *>(unit)) {
              site.rewritten = op->getLoc();
              break;
            }
          maybeForceInternalError(site.pass);
        }
        transform();
      });
}

} // namespace onnxc
