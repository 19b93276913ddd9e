//===- BufferCache.cpp - Reusing an AOT object's heap buffers across calls ===//
//
// The allocator is LLVM dialect source parsed into the module: a block is
// a 16-byte header holding its capacity followed by the bytes the caller
// asked for (the lowered code aligns within them itself). Why a cache
// shared by the object's threads behind a try-lock, rather than one per
// thread as the JIT has: an object cannot free a thread's cache when the
// thread exits with libc alone (pthread keys or __cxa_thread_atexit_impl
// would tie it to glibc and to dlclose's order), and a shared cache keeps
// the memory bounded however many threads call; the lock is held for a
// scan of at most 64 pointers, and a thread that finds it taken simply
// calls malloc/free, so no thread ever waits.
//
//===----------------------------------------------------------------------===//

#include "BufferCache.h"
#include "RuntimeSource.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAllocatorSource = R"mlir(
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)

llvm.mlir.global internal @__tracec_aot_cache_lock(0 : i32) {addr_space = 0 : i32} : i32
// The cached blocks and their capacities (a scan reads no block).
llvm.mlir.global internal @__tracec_aot_cache_count(0 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global internal @__tracec_aot_cache_blocks() {addr_space = 0 : i32} : !llvm.array<64 x ptr> {
  %0 = llvm.mlir.zero : !llvm.array<64 x ptr>
  llvm.return %0 : !llvm.array<64 x ptr>
}
llvm.mlir.global internal @__tracec_aot_cache_sizes() {addr_space = 0 : i32} : !llvm.array<64 x i64> {
  %0 = llvm.mlir.zero : !llvm.array<64 x i64>
  llvm.return %0 : !llvm.array<64 x i64>
}

// True if this thread now holds the cache.
llvm.func internal @__tracec_aot_cache_try_lock() -> i1 {
  %lock = llvm.mlir.addressof @__tracec_aot_cache_lock : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %old = llvm.atomicrmw xchg %lock, %one acquire : !llvm.ptr, i32
  %got = llvm.icmp "eq" %old, %zero : i32
  llvm.return %got : i1
}

llvm.func internal @__tracec_aot_cache_unlock() {
  %lock = llvm.mlir.addressof @__tracec_aot_cache_lock : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.store %zero, %lock atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// A new block of `size` bytes from malloc, or null.
llvm.func internal @__tracec_aot_new(%size: i64) -> !llvm.ptr {
  %null = llvm.mlir.zero : !llvm.ptr
  %header = llvm.mlir.constant(16 : i64) : i64
  %total = llvm.add %size, %header : i64
  %overflow = llvm.icmp "ult" %total, %size : i64
  llvm.cond_br %overflow, ^fail, ^allocate
^fail:
  llvm.return %null : !llvm.ptr
^allocate:
  %raw = llvm.call @malloc(%total) : (i64) -> !llvm.ptr
  %failed = llvm.icmp "eq" %raw, %null : !llvm.ptr
  llvm.cond_br %failed, ^fail, ^done
^done:
  llvm.store %size, %raw {alignment = 8 : i64} : i64, !llvm.ptr
  %block = llvm.getelementptr %raw[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.return %block : !llvm.ptr
}

// The smallest cached block of `size` to 2 * `size` bytes, else a new one.
llvm.func internal @tracec_aot_alloc(%size: i64) -> (!llvm.ptr {llvm.noalias}) attributes {no_inline} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %none = llvm.mlir.constant(-1 : i64) : i64
  %cachedFrom = llvm.mlir.constant(4096 : i64) : i64
  %blocks = llvm.mlir.addressof @__tracec_aot_cache_blocks : !llvm.ptr
  %sizes = llvm.mlir.addressof @__tracec_aot_cache_sizes : !llvm.ptr
  %countAddress = llvm.mlir.addressof @__tracec_aot_cache_count : !llvm.ptr
  %small = llvm.icmp "ult" %size, %cachedFrom : i64
  llvm.cond_br %small, ^new, ^lock
^lock:
  %locked = llvm.call @__tracec_aot_cache_try_lock() : () -> i1
  llvm.cond_br %locked, ^start, ^new
^start:
  %count = llvm.load %countAddress {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.br ^scan(%zero, %none, %none : i64, i64, i64)
^scan(%i: i64, %best: i64, %bestCapacity: i64):
  %scanned = llvm.icmp "uge" %i, %count : i64
  llvm.cond_br %scanned, ^chosen, ^check
^check:
  %sizeSlot = llvm.getelementptr %sizes[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %capacity = llvm.load %sizeSlot {alignment = 8 : i64} : !llvm.ptr -> i64
  %half = llvm.lshr %capacity, %one : i64
  %enough = llvm.icmp "uge" %capacity, %size : i64
  %notTwice = llvm.icmp "ule" %half, %size : i64
  %smaller = llvm.icmp "ult" %capacity, %bestCapacity : i64
  %fits = llvm.and %enough, %notTwice : i1
  %better = llvm.and %fits, %smaller : i1
  %nextBest = llvm.select %better, %i, %best : i1, i64
  %nextCapacity = llvm.select %better, %capacity, %bestCapacity : i1, i64
  %next = llvm.add %i, %one : i64
  llvm.br ^scan(%next, %nextBest, %nextCapacity : i64, i64, i64)
^chosen:
  %found = llvm.icmp "sge" %best, %zero : i64
  llvm.cond_br %found, ^take, ^unlock
^take:
  // The last cached block moves into the taken one's slot.
  %bestSlot = llvm.getelementptr %blocks[0, %best] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %bestSizeSlot = llvm.getelementptr %sizes[0, %best] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %taken = llvm.load %bestSlot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  %last = llvm.sub %count, %one : i64
  %lastSlot = llvm.getelementptr %blocks[0, %last] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %lastSizeSlot = llvm.getelementptr %sizes[0, %last] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %lastBlock = llvm.load %lastSlot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  %lastSize = llvm.load %lastSizeSlot {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.store %lastBlock, %bestSlot {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  llvm.store %lastSize, %bestSizeSlot {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.store %last, %countAddress {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.return %taken : !llvm.ptr
^unlock:
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.br ^new
^new:
  %fresh = llvm.call @__tracec_aot_new(%size) : (i64) -> !llvm.ptr
  llvm.return %fresh : !llvm.ptr
}

// Blocks from 4 KiB go back to the cache; when it is full, the smallest
// of its blocks and the freed one goes to libc.
llvm.func internal @tracec_aot_free(%block: !llvm.ptr) attributes {no_inline} {
  %null = llvm.mlir.zero : !llvm.ptr
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %slots = llvm.mlir.constant(64 : i64) : i64
  %cachedFrom = llvm.mlir.constant(4096 : i64) : i64
  %blocks = llvm.mlir.addressof @__tracec_aot_cache_blocks : !llvm.ptr
  %sizes = llvm.mlir.addressof @__tracec_aot_cache_sizes : !llvm.ptr
  %countAddress = llvm.mlir.addressof @__tracec_aot_cache_count : !llvm.ptr
  %isNull = llvm.icmp "eq" %block, %null : !llvm.ptr
  llvm.cond_br %isNull, ^done, ^sized
^sized:
  %raw = llvm.getelementptr %block[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  %capacity = llvm.load %raw {alignment = 8 : i64} : !llvm.ptr -> i64
  %small = llvm.icmp "ult" %capacity, %cachedFrom : i64
  llvm.cond_br %small, ^release(%block : !llvm.ptr), ^lock
^lock:
  %locked = llvm.call @__tracec_aot_cache_try_lock() : () -> i1
  llvm.cond_br %locked, ^room, ^release(%block : !llvm.ptr)
^room:
  %count = llvm.load %countAddress {alignment = 8 : i64} : !llvm.ptr -> i64
  %full = llvm.icmp "uge" %count, %slots : i64
  llvm.cond_br %full, ^smallest(%zero, %zero : i64, i64), ^append
^append:
  %slot = llvm.getelementptr %blocks[0, %count] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %sizeSlot = llvm.getelementptr %sizes[0, %count] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  llvm.store %block, %slot {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  llvm.store %capacity, %sizeSlot {alignment = 8 : i64} : i64, !llvm.ptr
  %next = llvm.add %count, %one : i64
  llvm.store %next, %countAddress {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.return
^smallest(%i: i64, %min: i64):
  %scanned = llvm.icmp "uge" %i, %slots : i64
  llvm.cond_br %scanned, ^evict, ^compare
^compare:
  %iSizeSlot = llvm.getelementptr %sizes[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %minSizeSlot = llvm.getelementptr %sizes[0, %min] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %iSize = llvm.load %iSizeSlot {alignment = 8 : i64} : !llvm.ptr -> i64
  %minSize = llvm.load %minSizeSlot {alignment = 8 : i64} : !llvm.ptr -> i64
  %less = llvm.icmp "ult" %iSize, %minSize : i64
  %nextMin = llvm.select %less, %i, %min : i1, i64
  %nextI = llvm.add %i, %one : i64
  llvm.br ^smallest(%nextI, %nextMin : i64, i64)
^evict:
  %victimSlot = llvm.getelementptr %blocks[0, %min] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %victimSizeSlot = llvm.getelementptr %sizes[0, %min] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x i64>
  %victimSize = llvm.load %victimSizeSlot {alignment = 8 : i64} : !llvm.ptr -> i64
  %keepNew = llvm.icmp "ult" %victimSize, %capacity : i64
  llvm.cond_br %keepNew, ^replace, ^unlock
^replace:
  %victim = llvm.load %victimSlot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  llvm.store %block, %victimSlot {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  llvm.store %capacity, %victimSizeSlot {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.br ^release(%victim : !llvm.ptr)
^unlock:
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.br ^release(%block : !llvm.ptr)
^release(%gone: !llvm.ptr):
  %goneRaw = llvm.getelementptr %gone[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.call @free(%goneRaw) : (!llvm.ptr) -> ()
  llvm.br ^done
^done:
  llvm.return
}

// At exit (or dlclose): the cached blocks go back to libc.
llvm.func internal @__tracec_aot_cache_release() {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %blocks = llvm.mlir.addressof @__tracec_aot_cache_blocks : !llvm.ptr
  %countAddress = llvm.mlir.addressof @__tracec_aot_cache_count : !llvm.ptr
  %locked = llvm.call @__tracec_aot_cache_try_lock() : () -> i1
  llvm.cond_br %locked, ^start, ^done
^start:
  %count = llvm.load %countAddress {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %finished = llvm.icmp "uge" %i, %count : i64
  llvm.cond_br %finished, ^emptied, ^body
^body:
  %slot = llvm.getelementptr %blocks[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<64 x ptr>
  %block = llvm.load %slot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  %raw = llvm.getelementptr %block[-16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.call @free(%raw) : (!llvm.ptr) -> ()
  %next = llvm.add %i, %one : i64
  llvm.br ^loop(%next : i64)
^emptied:
  llvm.store %zero, %countAddress {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.call @__tracec_aot_cache_unlock() : () -> ()
  llvm.br ^done
^done:
  llvm.return
}

llvm.mlir.global_dtors dtors = [@__tracec_aot_cache_release], priorities = [65535 : i32], data = [#llvm.zero]
)mlir";

/// Allocation functions whose blocks the lowered code could pass to free.
constexpr llvm::StringLiteral kOtherAllocators[] = {
    "calloc", "realloc", "aligned_alloc", "posix_memalign", "memalign",
    "valloc"};

} // namespace

LogicalResult tracec::aot::cacheHeapBuffers(ModuleOp module) {
  MLIRContext *context = module.getContext();
  if (!module.lookupSymbol<LLVM::LLVMFuncOp>("malloc"))
    return success();
  for (llvm::StringRef name : kOtherAllocators)
    if (module.lookupSymbol(name))
      return success();

  // (CPU code has no other destructors: its object needs no constructors.)
  if (!module.getOps<LLVM::GlobalDtorsOp>().empty())
    return success();

  // The module's own calls go to the cache; the cache's to the C library.
  return mergeRuntimeSource(module, kAllocatorSource, "buffer cache", [&] {
    for (auto [from, to] : {std::pair{"malloc", "tracec_aot_alloc"},
                            std::pair{"free", "tracec_aot_free"}})
      if (failed(SymbolTable::replaceAllSymbolUses(
              StringAttr::get(context, from), StringAttr::get(context, to),
              module.getOperation())))
        return failure();
    return success();
  });
}
