//===- CompileCache.cpp - Object code of compiled modules on disk ---------===//

#include "CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <cstdio>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

using namespace tracec;

/// Bumped when the entry format or what the objects assume changes.
static constexpr llvm::StringLiteral kMagic = "TRCOBJ01";
static constexpr size_t kHashSize = 32;
static constexpr size_t kTrailerSize = 8 + 8 + kHashSize;

static std::string hexHash(llvm::StringRef text) {
  auto hash = llvm::BLAKE3::hash<kHashSize>(llvm::arrayRefFromStringRef(text));
  return llvm::toHex(hash, /*LowerCase=*/true);
}

static std::array<uint8_t, kHashSize> entryHash(llvm::StringRef key,
                                                llvm::StringRef payload) {
  llvm::BLAKE3 hasher;
  hasher.update(key);
  hasher.update(payload);
  return hasher.final<kHashSize>();
}

/// Why the JIT must not run code from `path` ("" if it may): the file or
/// directory is another user's, or others than its owner can write it.
static std::string unsafeBecause(const std::string &path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    return "it cannot be read";
  if (info.st_uid != ::geteuid())
    return "it belongs to user " + std::to_string(info.st_uid) +
           ", not to this one (" + std::to_string(::geteuid()) + ")";
  if (info.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(info.st_mode & 07777));
    return std::string("users other than its owner can write it (mode ") +
           mode + ")";
  }
  return "";
}

/// The cache in `directory` (made 0700 if missing), or none if it is not
/// safe: a warning says why, once per process.
static std::optional<std::string> safeDirectory(const std::string &directory) {
  // create_directories makes the parents with the umask's mode, the cache
  // directory itself 0700.
  llvm::SmallString<256> parent(directory);
  llvm::sys::path::remove_filename(parent);
  if (!parent.empty())
    (void)llvm::sys::fs::create_directories(parent);
  (void)llvm::sys::fs::create_directory(directory, /*IgnoreExisting=*/true,
                                        llvm::sys::fs::perms::owner_all);
  std::string reason = unsafeBecause(directory);
  if (reason.empty())
    return directory;
  static std::once_flag warned;
  std::call_once(warned, [&] {
    llvm::errs() << "tracec: warning: not using the compile cache '"
                 << directory << "': " << reason
                 << "; compiling without it (make it the user's own with "
                    "mode 0700, or set TRACEC_CACHE_DIR)\n";
  });
  return std::nullopt;
}

std::optional<CompileCache> CompileCache::open(bool enabled,
                                               llvm::StringRef directory) {
  if (!enabled)
    return std::nullopt;
  if (auto disable = llvm::sys::Process::GetEnv("TRACEC_DISABLE_CACHE"))
    if (!disable->empty() && *disable != "0")
      return std::nullopt;
  auto checked = [](const std::string &dir) -> std::optional<CompileCache> {
    if (auto safe = safeDirectory(dir))
      return CompileCache(*safe);
    return std::nullopt;
  };
  if (!directory.empty())
    return checked(directory.str());
  if (auto dir = llvm::sys::Process::GetEnv("TRACEC_CACHE_DIR"))
    if (!dir->empty())
      return checked(*dir);
  llvm::SmallString<256> path;
  if (auto xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (auto home = llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return std::nullopt;
  }
  llvm::sys::path::append(path, "tracec");
  return checked(path.str().str());
}

const std::string &CompileCache::buildIdentity() {
  // The file holding this code (the tool, or the shared library a host
  // program or Python loaded), by path, size and modification time.
  static const std::string identity = [] {
    std::string text = std::string(kMagic) + " LLVM " LLVM_VERSION_STRING;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&CompileCache::buildIdentity), &info) &&
        info.dli_fname) {
      llvm::sys::fs::file_status status;
      text += " ";
      text += info.dli_fname;
      if (!llvm::sys::fs::status(info.dli_fname, status))
        text +=
            " " + std::to_string(status.getSize()) + " " +
            std::to_string(
                status.getLastModificationTime().time_since_epoch().count());
    }
    return text;
  }();
  return identity;
}

std::string CompileCache::entryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, hexHash(key) + ".objects");
  return path.str().str();
}

std::string CompileCache::temporaryPath(llvm::StringRef key) const {
  llvm::SmallString<256> model(directory_);
  llvm::sys::path::append(model,
                          hexHash(key).substr(0, 16) + ".tmp-%%%%%%%%%%%%");
  llvm::SmallString<256> path;
  llvm::sys::fs::createUniquePath(model, path, /*MakeAbsolute=*/false);
  return path.str().str();
}

/// The objects of a payload, each after its size (8 bytes, little endian);
/// none if the sizes do not add up.
static llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>
splitObjects(llvm::StringRef payload, llvm::StringRef name) {
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  while (!payload.empty()) {
    if (payload.size() < 8)
      return {};
    uint64_t size = llvm::support::endian::read64le(payload.data());
    payload = payload.drop_front(8);
    if (size == 0 || size > payload.size())
      return {};
    objects.push_back(
        llvm::MemoryBuffer::getMemBufferCopy(payload.take_front(size), name));
    payload = payload.drop_front(size);
  }
  return objects;
}

llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>
CompileCache::lookup(llvm::StringRef key, bool &rejected) const {
  rejected = false;
  auto file = llvm::MemoryBuffer::getFile(entryPath(key), /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return {};
  rejected = true;
  // An entry someone else wrote (or can rewrite) is not run.
  if (!unsafeBecause(entryPath(key)).empty())
    return {};
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < kTrailerSize)
    return {};
  llvm::StringRef trailer = bytes.take_back(kTrailerSize);
  llvm::StringRef payload = bytes.drop_back(kTrailerSize);
  if (!trailer.starts_with(kMagic))
    return {};
  uint64_t size = llvm::support::endian::read64le(trailer.data() + 8);
  if (size != payload.size())
    return {};
  auto hash = entryHash(key, payload);
  if (llvm::StringRef(reinterpret_cast<const char *>(hash.data()),
                      hash.size()) != trailer.substr(16))
    return {};
  auto objects = splitObjects(payload, entryPath(key));
  rejected = objects.empty();
  return objects;
}

bool CompileCache::store(
    llvm::StringRef key,
    llvm::ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) const {
  std::string payload;
  for (const auto &object : objects) {
    char size[8];
    llvm::support::endian::write64le(size, object->getBufferSize());
    payload += llvm::StringRef(size, 8);
    payload += object->getBuffer();
  }
  std::string temporary = temporaryPath(key);
  {
    // 0600: no one else reads what this user compiled, or rewrites it.
    int fd = -1;
    if (llvm::sys::fs::openFileForWrite(
            temporary, fd, llvm::sys::fs::CD_CreateNew,
            llvm::sys::fs::OF_None,
            llvm::sys::fs::perms::owner_read |
                llvm::sys::fs::perms::owner_write))
      return false;
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    char size[8];
    llvm::support::endian::write64le(size, payload.size());
    auto hash = entryHash(key, payload);
    os << payload << kMagic << llvm::StringRef(size, 8)
       << llvm::StringRef(reinterpret_cast<const char *>(hash.data()),
                          hash.size());
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  // rename() replaces the entry atomically: readers see the old file or
  // the new one, never a part.
  if (llvm::sys::fs::rename(temporary, entryPath(key))) {
    llvm::sys::fs::remove(temporary);
    return false;
  }
  return true;
}
