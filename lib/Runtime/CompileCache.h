//===- CompileCache.h - Object code of compiled modules on disk -----------===//
//
// The persistent compile cache of the JIT: the object code of a module is
// stored under a key made of everything that decides it (the module's text,
// the pass pipeline with its options, the LLVM optimization level, the
// target CPU and its features, and the tracec build), so a second process
// that compiles the same module on the same machine compiles nothing.
//
// One file per entry, `<blake3 of the key>.objects`: the object files (the
// JIT compiles a module in partitions), each after its size, then a
// trailer (magic, payload size, blake3 of key and payload). An entry is
// written to a unique temporary file and renamed into place, so concurrent
// processes never see half an entry; one that fails the trailer's checks
// is ignored (and rewritten by the compile that follows), never loaded.
//
// The cache holds native code that the JIT runs, and its checks are not
// secret: whoever can write the directory can plant code. So, as ssh and
// pip do, the directory is used only if it is the user's own and no one
// else can write it (it is created 0700, entries 0600); otherwise a
// warning says so, once per process, and compiles go without the cache.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_COMPILECACHE_H
#define TRACEC_LIB_RUNTIME_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace tracec {

class CompileCache {
public:
  /// The cache in `directory`, or where the environment says when it is
  /// empty ($TRACEC_CACHE_DIR, else $XDG_CACHE_HOME/tracec, else
  /// $HOME/.cache/tracec), created 0700 if missing. None when `enabled` is
  /// false, when TRACEC_DISABLE_CACHE is set to anything but "" or "0",
  /// when no directory is known, or when the directory is not safe to run
  /// code from (another user's, or writable by group or others: a warning
  /// on stderr says which, once per process).
  static std::optional<CompileCache> open(bool enabled,
                                          llvm::StringRef directory);

  /// What identifies the code of this build of tracec: a rebuilt tracec
  /// never loads the objects of an older one.
  static const std::string &buildIdentity();

  /// The file of `key`'s entry.
  std::string entryPath(llvm::StringRef key) const;

  /// The objects stored under `key`, or none: no entry, or (with
  /// `rejected` set) an entry that is truncated or corrupt.
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>
  lookup(llvm::StringRef key, bool &rejected) const;

  /// Stores `objects` under `key` atomically; false when they could not be
  /// written (the compile goes on without the cache).
  bool store(llvm::StringRef key,
             llvm::ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) const;

  const std::string &directory() const { return directory_; }

private:
  /// A unique file name in the cache directory for an entry being written.
  std::string temporaryPath(llvm::StringRef key) const;

  explicit CompileCache(std::string directory)
      : directory_(std::move(directory)) {}
  std::string directory_;
};

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_COMPILECACHE_H
