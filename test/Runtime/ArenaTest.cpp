//===- ArenaTest.cpp - The per-thread arena of onnxc-plan-buffers ---------===//
//
// onnxc_arena_acquire / onnxc_arena_release (lib/Runtime/Arena.c) as
// generated code calls them: 64-byte aligned memory of the size asked, the
// same block again for the next call on the thread (grown when a call needs
// more), fresh memory for a call nested in another, and a block of each
// thread's own.
//
//===----------------------------------------------------------------------===//

#include "Arena.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <thread>

namespace {
OnnxcByteMemRef acquire(int64_t bytes) {
  OnnxcByteMemRef arena;
  _mlir_ciface_onnxc_arena_acquire(&arena, bytes);
  REQUIRE(arena.aligned);
  CHECK(reinterpret_cast<uintptr_t>(arena.aligned) % 64 == 0);
  CHECK(arena.offset == 0);
  CHECK(arena.sizes[0] == bytes);
  CHECK(arena.strides[0] == 1);
  std::memset(arena.aligned, 0x5a, static_cast<size_t>(bytes));
  return arena;
}
} // namespace

TEST_CASE("arena: one block per thread, reused by call after call", "[arena]") {
  OnnxcByteMemRef first = acquire(1000);
  _mlir_ciface_onnxc_arena_release(&first);
  // A smaller call gets the same memory, a larger one memory of its size.
  OnnxcByteMemRef again = acquire(64);
  CHECK(again.aligned == first.aligned);
  _mlir_ciface_onnxc_arena_release(&again);
  OnnxcByteMemRef larger = acquire(1 << 20);
  _mlir_ciface_onnxc_arena_release(&larger);
  OnnxcByteMemRef reused = acquire(1 << 20);
  CHECK(reused.aligned == larger.aligned);

  // A call while the block is in use gets memory of its own.
  OnnxcByteMemRef nested = acquire(4096);
  CHECK(nested.aligned != reused.aligned);
  _mlir_ciface_onnxc_arena_release(&nested);
  _mlir_ciface_onnxc_arena_release(&reused);

  // Another thread has a block of its own.
  void *other = nullptr;
  std::thread worker([&] {
    OnnxcByteMemRef mine = acquire(1 << 20);
    other = mine.aligned;
    _mlir_ciface_onnxc_arena_release(&mine);
  });
  worker.join();
  OnnxcByteMemRef own = acquire(1 << 20);
  CHECK(own.aligned == larger.aligned);
  CHECK(other != own.aligned);
  _mlir_ciface_onnxc_arena_release(&own);
}
