//===- HeaderEmitter.cpp - The C/C++ header of an AOT-compiled model ------===//
//
// The C part declares one destination-passing function per entry plus
// macros for every buffer's rank, shape, element count and bytes; an entry
// with dynamic dims takes them after each buffer, and gets its shape
// function (<entry>_shape) and size macros of its dims. The C++
// part is a class in the manner of tfcompile's: it owns one 64-byte
// aligned arena holding the variables (persistent across calls and
// entries) and, per entry, the argument and result buffers.
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/HeaderEmitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace tracec;
using namespace tracec::aot;

namespace {
constexpr int64_t kAlignment = 64;

/// The C element type of `dtype`; 16-bit floats travel as their bits.
llvm::StringRef cType(DType dtype) {
  switch (dtype) {
  case DType::f16:
  case DType::bf16:
    return "uint16_t";
  case DType::f32:
    return "float";
  case DType::f64:
    return "double";
  case DType::i1:
    return "bool";
  case DType::i32:
    return "int32_t";
  case DType::i64:
    return "int64_t";
  }
  return "void";
}

int64_t elementCount(const TensorSpec &spec) {
  int64_t count = 1;
  for (int64_t size : spec.shape)
    count *= size;
  return count;
}

int64_t byteSize(const TensorSpec &spec) {
  return elementCount(spec) * static_cast<int64_t>(dtypeSize(spec.dtype));
}

/// A buffer's bytes rounded up to the alignment (at least one block).
int64_t paddedSize(const TensorSpec &spec) {
  int64_t bytes = std::max<int64_t>(byteSize(spec), 1);
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

std::string upper(llvm::StringRef text) { return text.upper(); }

bool isDynamic(const TensorSpec &spec) { return spec.hasDynamicDims(); }

/// The C parameters that carry the dynamic dims of buffer `name`:
/// "x_dim0", ...
std::vector<std::string> dimNames(llvm::StringRef name,
                                  const TensorSpec &spec) {
  std::vector<std::string> names;
  for (auto [d, size] : llvm::enumerate(spec.shape))
    if (size == TensorSpec::kDynamic)
      names.push_back(name.str() + "_dim" + std::to_string(d));
  return names;
}

/// The element count as a C expression of the dynamic dims:
/// "(int64_t)(x_dim0) * 4".
std::string elementCountExpr(llvm::StringRef name, const TensorSpec &spec) {
  std::vector<std::string> factors;
  int64_t count = 1;
  for (auto [d, size] : llvm::enumerate(spec.shape)) {
    if (size == TensorSpec::kDynamic)
      factors.push_back("(int64_t)(" + name.str() + "_dim" + std::to_string(d) +
                        ")");
    else
      count *= size;
  }
  if (count != 1 || factors.empty())
    factors.push_back(std::to_string(count));
  return llvm::join(factors, " * ");
}

/// "x_dim0*16" for the comment: a buffer's bytes.
std::string bytesText(llvm::StringRef name, const TensorSpec &spec) {
  if (!isDynamic(spec))
    return std::to_string(byteSize(spec));
  std::vector<std::string> factors = dimNames(name, spec);
  int64_t bytes = dtypeSize(spec.dtype);
  for (int64_t size : spec.shape)
    if (size != TensorSpec::kDynamic)
      bytes *= size;
  factors.push_back(std::to_string(bytes));
  return llvm::join(factors, "*");
}

// The fixed parts of the C++ class; formatv fills in the {N}s ({{ is {).
constexpr const char *kEntryAccessors =
    R"(    static constexpr size_t ArgSize(int i) {
      return i >= 0 && i < kNumArgs ? kArgSizes[i] : 0;
    }
    static constexpr size_t ResultSize(int i) {
      return i >= 0 && i < kNumResults ? kResultSizes[i] : 0;
    }
)";

constexpr const char *kEntryBuffers =
    R"(    // An argument's buffer: the class's own, or the caller's after
    // set_arg_data (which must outlive the calls of Run).
    void *arg_data(int i) {
      return i >= 0 && i < kNumArgs ? args_[i] : nullptr;
    }
    void set_arg_data(int i, const void *data) {
      if (i >= 0 && i < kNumArgs) args_[i] = const_cast<void *>(data);
    }
    void *result_data(int i) {
      return i >= 0 && i < kNumResults ? results_[i] : nullptr;
    }
)";

constexpr const char *kModelClassHead = R"(
// The entry points of {0} with their buffers. The class owns one
// 64-byte aligned, zero-initialised allocation holding the variables
// (persistent: every entry reads and updates them) and each entry's
// argument and result buffers. Not copyable; one instance is used by one
// thread at a time.
class {1} {{
public:
  static constexpr int kNumVariables = {2};
)";

constexpr const char *kModelAccessors =
    R"(  static constexpr size_t VariableSize(int i) {
    return i >= 0 && i < kNumVariables ? kVariableSizes[i] : 0;
  }
  // A variable's buffer: write it to initialise the variable, read it
  // for its current value.
  void *variable_data(int i) {
    return i >= 0 && i < kNumVariables ? variables_[i] : nullptr;
  }
  static const char *VariableName(int i) {
    static const char *const names[] = {)";

constexpr const char *kModelClassTail = R"(
  {0}() {{
{1}    arena_ = std::aligned_alloc({2}, kArenaBytes);
    if (!arena_)
      return; // every buffer stays null: Run returns 1
    std::memset(arena_, 0, kArenaBytes);
    char *arena = static_cast<char *>(arena_);
{3}  }
  ~{0}() {{ std::free(arena_); }
  {0}(const {0} &) = delete;
  {0} &operator=(const {0} &) = delete;

private:
  static constexpr size_t kArenaBytes = {4};
  void *arena_ = nullptr;
  void *variables_[kNumVariables + 1] = {{};
};
)";

/// What the C functions return; shared by every tracec header.
constexpr const char *kStatusCodes = R"(#ifndef TRACEC_AOT_STATUS_CODES
#define TRACEC_AOT_STATUS_CODES
/* What the C functions return. */
#define TRACEC_AOT_OK 0
#define TRACEC_AOT_NULL_BUFFER 1     /* a buffer (or dim pointer) is null */
#define TRACEC_AOT_BAD_DIMS 2        /* the arguments' dims disagree */
#define TRACEC_AOT_BAD_RESULT_DIMS 3 /* the results' dims are not those of
                                        the shape function */
#define TRACEC_AOT_UNSUPPORTED_CPU 4 /* the CPU has none of the x86-64
                                        levels the object is built for */
#endif
)";

/// Buffers whose dims are set per call, for the C++ classes of entries with
/// dynamic dims; shared by every tracec header.
constexpr const char *kDynamicBuffers = R"(
#include <cstdint>

#ifndef TRACEC_AOT_DYNAMIC_BUFFERS
#define TRACEC_AOT_DYNAMIC_BUFFERS
namespace tracec_aot {
// The bytes of a buffer of `dims`, or SIZE_MAX if a dim is negative or
// the product overflows.
inline size_t Bytes(const int64_t *dims, int rank, size_t element_size) {
  size_t bytes = element_size;
  for (int d = 0; d < rank; ++d) {
    if (dims[d] < 0 ||
        (dims[d] != 0 && bytes > SIZE_MAX / 2 / static_cast<size_t>(dims[d])))
      return SIZE_MAX;
    bytes *= static_cast<size_t>(dims[d]);
  }
  return bytes;
}
// A buffer of a class whose size is set per call: 64-byte aligned, kept
// while calls fit, grown when one needs more.
class OwnedBuffer {
public:
  OwnedBuffer() = default;
  OwnedBuffer(const OwnedBuffer &) = delete;
  OwnedBuffer &operator=(const OwnedBuffer &) = delete;
  ~OwnedBuffer() { std::free(data_); }
  // At least `bytes`, or null if they cannot be allocated.
  void *Reserve(size_t bytes) {
    if (bytes > SIZE_MAX / 2)
      return nullptr;
    if (data_ && bytes <= capacity_)
      return data_;
    size_t rounded = (bytes + 63) / 64 * 64;
    void *data = std::aligned_alloc(64, rounded ? rounded : 64);
    if (!data)
      return nullptr;
    std::free(data_);
    data_ = data;
    capacity_ = rounded;
    return data_;
  }

private:
  void *data_ = nullptr;
  size_t capacity_ = 0;
};
} // namespace tracec_aot
#endif
)";

/// One buffer of an entry as the header sees it.
struct Buffer {
  enum Kind { input, variable, result } kind;
  std::string name;
  TensorSpec spec;
  /// The index among the entry's inputs, among the model's variables, or
  /// among the entry's results.
  int index;
};

std::vector<Buffer> buffersOf(const EntryPoint &entry,
                              llvm::ArrayRef<ModelVariable> variables) {
  std::vector<Buffer> buffers;
  int inputs = 0;
  for (auto [spec, name] : llvm::zip(entry.signature.inputs, entry.argNames)) {
    if (!spec.isVariable) {
      buffers.push_back({Buffer::input, name, spec, inputs++});
      continue;
    }
    auto it =
        llvm::find_if(variables, [&, &name = name](const ModelVariable &v) {
          return v.name == name;
        });
    buffers.push_back({Buffer::variable, name, spec,
                       static_cast<int>(it - variables.begin())});
  }
  for (auto [i, spec, name] :
       llvm::enumerate(entry.signature.results, entry.resultNames))
    buffers.push_back({Buffer::result, name, spec, static_cast<int>(i)});
  return buffers;
}

/// "@step(%x: tensor<8x4xf32>, ...) -> (%loss: tensor<f32>)": the logical
/// signature, with the names the header uses.
std::string logicalSignature(const EntryPoint &entry,
                             llvm::ArrayRef<Buffer> buffers) {
  std::string args, results;
  for (const Buffer &b : buffers) {
    std::string type = b.kind == Buffer::variable
                           ? "!trace.resource<" + b.spec.str() + ">"
                           : b.spec.str();
    std::string &list = b.kind == Buffer::result ? results : args;
    list += (list.empty() ? "" : ", ") + b.name + ": " + type;
  }
  return "@" + entry.signature.name + "(" + args + ") -> (" + results + ")";
}

class HeaderWriter {
public:
  HeaderWriter(llvm::raw_ostream &os, llvm::ArrayRef<EntryPoint> entries,
               const HeaderOptions &options)
      : os(os), entries(entries), options(options),
        variables(variablesOf(entries)) {}

  void write() {
    // The namespace is part of the guard: two models whose classes differ
    // only in their namespace can be included together.
    std::string scope = options.namespaceName;
    std::replace(scope.begin(), scope.end(), ':', '_');
    std::string guard = "TRACEC_AOT_" +
                        (scope.empty() ? "" : upper(scope) + "_") +
                        upper(options.prefix) + "_H";
    os << "// Generated by tracec from " << options.modelName
       << "; do not edit.\n"
       << "//\n"
       << "// Destination passing: the caller owns every buffer. Inputs are\n"
       << "// only read, variables are read and updated in place, results "
          "are\n"
       << "// written. Buffers need the alignment of their element type "
          "(the\n"
       << "// class below aligns its own to 64 bytes). A C function returns "
          "0,\n"
       << "// 1 if a buffer is null, 4 if the CPU is too old "
          "(TRACEC_AOT_* below);\n"
       << "// one with dynamic dims (?) also takes them. The object needs "
          "only\n// libc and libm"
       << " (and TracecABI where the model uses trace.print).\n\n"
       << "#ifndef " << guard << "\n#define " << guard << "\n\n"
       << "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
       << kStatusCodes << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
    for (const EntryPoint &entry : entries)
      writeCEntry(entry);
    os << "\n/* The CPU whose code the calls run: of the x86-64 levels the "
          "object is\n"
          " * built for (--target-cpu), the highest this CPU has, at most "
          "$TRACEC_MAX_CPU;\n"
          " * NULL if it has none (every call returns "
          "TRACEC_AOT_UNSUPPORTED_CPU).\n"
          " * An object built for one named CPU returns its name and does "
          "not check. */\n"
       << "const char *" << options.prefix << "_target_cpu(void);\n";
    os << "\n#ifdef __cplusplus\n} // extern \"C\"\n";
    writeClass();
    os << "#endif // __cplusplus\n\n#endif // " << guard << "\n";
  }

private:
  void writeCEntry(const EntryPoint &entry) {
    std::vector<Buffer> buffers = buffersOf(entry, variables);
    bool dynamic = entry.signature.hasDynamicDims();
    os << "\n/* " << logicalSignature(entry, buffers) << "\n";
    for (const Buffer &b : buffers)
      os << llvm::formatv(" *   {0,-12} {1,-24} {2,10} bytes  {3}\n", b.name,
                          b.spec.str(), bytesText(b.name, b.spec),
                          b.kind == Buffer::input      ? "input"
                          : b.kind == Buffer::variable ? "variable (in/out)"
                                                       : "result");
    if (dynamic)
      os << " *\n"
         << " * A buffer with dynamic dims (?) is passed with them, each `?` "
            "in\n"
         << " * order. Returns 0; 1 if a buffer is null; 2 if the "
            "arguments'\n"
         << " * dims disagree (" << entry.symbol
         << "_shape says why); 3 if the\n"
         << " * results' dims are not those " << entry.symbol
         << "_shape computes. Nothing\n"
         << " * is written unless it returns 0.\n";
    os << " */\nint " << entry.symbol << "(";
    for (auto [i, b] : llvm::enumerate(buffers)) {
      os << (i ? ", " : "") << (b.kind == Buffer::input ? "const " : "")
         << cType(b.spec.dtype) << " *" << b.name;
      for (const std::string &dim : dimNames(b.name, b.spec))
        os << ", int64_t " << dim;
    }
    os << ");\n";
    if (dynamic) {
      os << "\n/* The shape function of " << entry.symbol
         << ": checks that the arguments' dims\n"
            " * are sizes and agree, and writes the results' dynamic dims. "
            "Returns 0;\n"
            " * 2 with the reason in `error` (NUL-terminated, at most "
            "error_size\n"
            " * bytes; error may be NULL) if they disagree; 1 if a dim "
            "pointer is null.\n */\nint "
         << entry.symbol << "_shape(";
      bool first = true;
      for (const Buffer &b : buffers)
        if (b.kind != Buffer::result)
          for (const std::string &dim : dimNames(b.name, b.spec)) {
            os << (first ? "" : ", ") << "int64_t " << dim;
            first = false;
          }
      for (const Buffer &b : buffers)
        if (b.kind == Buffer::result)
          for (const std::string &dim : dimNames(b.name, b.spec)) {
            os << (first ? "" : ", ") << "int64_t *" << dim;
            first = false;
          }
      os << (first ? "" : ", ") << "char *error, size_t error_size);\n";
    }
    os << "\n";

    std::string macro = upper(entry.symbol);
    os << "#define " << macro << "_NUM_ARGS " << entry.signature.inputs.size()
       << "\n#define " << macro << "_NUM_RESULTS "
       << entry.signature.results.size() << "\n";
    for (const Buffer &b : buffers) {
      std::string name = macro +
                         (b.kind == Buffer::result ? "_RESULT_" : "_ARG_") +
                         upper(b.name);
      os << "#define " << name << "_RANK " << b.spec.shape.size() << "\n";
      // A dynamic dim shows as -1; the sizes are macros of the dims.
      if (!b.spec.shape.empty())
        os << "#define " << name << "_SHAPE {"
           << llvm::join(llvm::map_range(b.spec.shape,
                                         [](int64_t d) {
                                           return std::to_string(
                                               d == TensorSpec::kDynamic ? -1
                                                                         : d);
                                         }),
                         ", ")
           << "}\n";
      if (!isDynamic(b.spec)) {
        os << "#define " << name << "_SIZE " << elementCount(b.spec) << "\n"
           << "#define " << name << "_BYTES " << byteSize(b.spec) << "\n";
        continue;
      }
      std::string params = llvm::join(dimNames(b.name, b.spec), ", ");
      std::string count = elementCountExpr(b.name, b.spec);
      os << "#define " << name << "_SIZE(" << params << ") (" << count << ")\n"
         << "#define " << name << "_BYTES(" << params << ") (" << count << " * "
         << dtypeSize(b.spec.dtype) << ")\n";
    }
  }

  /// `static constexpr size_t <name>[] = {sizes..., 0};` (never empty).
  void writeSizes(llvm::StringRef indent, llvm::StringRef name,
                  llvm::ArrayRef<const Buffer *> buffers) {
    os << indent << "static constexpr size_t " << name << "[] = {";
    for (const Buffer *b : buffers)
      os << byteSize(b->spec) << ", ";
    os << "0};\n";
  }

  /// An entry's buffers, its inputs and results among them, and the name
  /// of its nested class.
  struct EntryClass {
    std::vector<Buffer> buffers;
    std::vector<const Buffer *> inputs, results; // into `buffers`
    std::string name;
    EntryClass() = default;
    EntryClass(EntryClass &&) = default; // keeps `buffers`' storage
    EntryClass(const EntryClass &) = delete;
  };

  EntryClass entryClass(const EntryPoint &entry) {
    EntryClass layout;
    layout.buffers = buffersOf(entry, variables);
    for (const Buffer &b : layout.buffers) {
      if (b.kind == Buffer::input)
        layout.inputs.push_back(&b);
      else if (b.kind == Buffer::result)
        layout.results.push_back(&b);
    }
    layout.name = toClassName(entry.signature.name, "Entry");
    if (layout.name == options.className)
      layout.name += "Entry"; // a member may not be named after its class
    return layout;
  }

  void writeEntryClass(const EntryPoint &entry) {
    EntryClass layout = entryClass(entry);
    const std::vector<Buffer> &buffers = layout.buffers;
    const std::vector<const Buffer *> &inputs = layout.inputs;
    const std::vector<const Buffer *> &results = layout.results;
    const std::string &cls = layout.name;
    os << "\n  // " << logicalSignature(entry, buffers) << "\n"
       << "  class " << cls << " {\n  public:\n"
       << "    // The arguments that are not variables, in order.\n"
       << "    static constexpr int kNumArgs = " << inputs.size() << ";\n"
       << "    static constexpr int kNumResults = " << results.size() << ";\n";
    writeSizes("    ", "kArgSizes", inputs);
    writeSizes("    ", "kResultSizes", results);
    os << kEntryAccessors << kEntryBuffers;
    for (const Buffer *b : inputs)
      os << llvm::formatv(
          R"(    {0} *arg_{1}_data() {{ return static_cast<{0} *>(args_[{2}]); }
    void set_arg_{1}_data(const {0} *data) {{
      args_[{2}] = const_cast<{0} *>(data);
    }
)",
          cType(b->spec.dtype), b->name, b->index);
    for (const Buffer *b : results)
      os << llvm::formatv("    {0} *result_{1}_data() {{ return "
                          "static_cast<{0} *>(results_[{2}]); }\n",
                          cType(b->spec.dtype), b->name, b->index);
    os << "    // Runs @" << entry.signature.name
       << " on the buffers and the model's variables: 0, or 1 if a\n"
          "    // buffer is null (the model's allocation failed).\n"
          "    int Run() {\n      return "
       << entry.symbol << "(";
    for (auto [i, b] : llvm::enumerate(buffers)) {
      llvm::StringRef array = b.kind == Buffer::input      ? "args_"
                              : b.kind == Buffer::variable ? "variables_"
                                                           : "results_";
      os << (i ? ",\n          " : "") << "static_cast<"
         << (b.kind == Buffer::input ? "const " : "") << cType(b.spec.dtype)
         << " *>(" << array << "[" << b.index << "])";
    }
    os << llvm::formatv(R"();
    }

  private:
    friend class {0};
    void *args_[kNumArgs + 1] = {{};
    void *results_[kNumResults + 1] = {{};
    void **variables_ = nullptr;
  };
  {1} {2};
)",
                        options.className, cls,
                        toCIdentifier(entry.signature.name));
  }

  /// The class of an entry with dynamic dims: the dims of the arguments
  /// are set per call, with the caller's buffer or one the class grows;
  /// Run computes the results' dims and grows their buffers.
  void writeDynamicEntryClass(const EntryPoint &entry) {
    EntryClass layout = entryClass(entry);
    const std::vector<Buffer> &buffers = layout.buffers;
    const std::vector<const Buffer *> &inputs = layout.inputs;
    const std::vector<const Buffer *> &results = layout.results;
    const std::string &cls = layout.name;
    auto dimsArray = [](const Buffer *b) {
      return (b->kind == Buffer::input ? "arg_" : "result_") + b->name +
             "_dims_";
    };
    // "int64_t x_dim0, int64_t x_dim1" and "x_dim0, x_dim1".
    auto params = [](const Buffer *b, llvm::StringRef type) {
      std::vector<std::string> names = dimNames(b->name, b->spec);
      for (std::string &name : names)
        name = type.str() + name;
      return llvm::join(names, ", ");
    };
    auto bytes = [&](const Buffer *b) {
      if (!isDynamic(b->spec))
        return std::to_string(byteSize(b->spec));
      return llvm::formatv("tracec_aot::Bytes({0}, {1}, {2})", dimsArray(b),
                           b->spec.shape.size(), dtypeSize(b->spec.dtype))
          .str();
    };
    auto sizeFunction = [&](llvm::StringRef name,
                            llvm::ArrayRef<const Buffer *> list) {
      os << "    size_t " << name << "(int i) const {\n      switch (i) {\n";
      for (auto [i, b] : llvm::enumerate(list))
        os << "      case " << i << ": return " << bytes(b) << ";\n";
      os << "      default: return 0;\n      }\n    }\n";
    };
    os << "\n  // " << logicalSignature(entry, buffers) << "\n"
       << "  // Dynamic dims: set each argument's with set_arg_<name>_dims "
          "(the\n"
          "  // class's buffer, grown as needed) or set_arg_<name>_data (the "
          "caller's);\n"
          "  // Run computes the results' dims (result_<name>_dims) and grows "
          "their\n"
          "  // buffers.\n"
       << "  class " << cls << " {\n  public:\n"
       << "    // The arguments that are not variables, in order.\n"
       << "    static constexpr int kNumArgs = " << inputs.size() << ";\n"
       << "    static constexpr int kNumResults = " << results.size() << ";\n"
       << "    // Bytes at the current dims (results': of the last Run).\n";
    sizeFunction("ArgSize", inputs);
    sizeFunction("ResultSize", results);
    os << kEntryBuffers;
    for (const Buffer *b : inputs) {
      llvm::StringRef type = cType(b->spec.dtype);
      os << llvm::formatv("    {0} *arg_{1}_data() {{ return "
                          "static_cast<{0} *>(args_[{2}]); }\n",
                          type, b->name, b->index);
      if (!isDynamic(b->spec)) {
        os << llvm::formatv(R"(    void set_arg_{1}_data(const {0} *data) {{
      args_[{2}] = const_cast<{0} *>(data);
    }
)",
                            type, b->name, b->index);
        continue;
      }
      std::string array = dimsArray(b), assign;
      for (auto [d, size] : llvm::enumerate(b->spec.shape))
        if (size == TensorSpec::kDynamic)
          assign += llvm::formatv("      {0}[{1}] = {2}_dim{1};\n", array, d,
                                  b->name);
      os << llvm::formatv(
          R"(    const int64_t *arg_{1}_dims() const {{ return {3}; }
    // The class's buffer for these dims (kept while calls fit), or null
    // if it cannot be allocated (a negative dim, no memory).
    {0} *set_arg_{1}_dims({4}) {{
{5}      args_[{2}] = owned_args_[{2}].Reserve({6});
      return static_cast<{0} *>(args_[{2}]);
    }
    // The caller's buffer of these dims (it must outlive the calls of Run).
    void set_arg_{1}_data(const {0} *data, {4}) {{
{5}      args_[{2}] = const_cast<{0} *>(data);
    }
)",
          type, b->name, b->index, array, params(b, "int64_t "), assign,
          bytes(b));
    }
    for (const Buffer *b : results) {
      os << llvm::formatv("    {0} *result_{1}_data() {{ return "
                          "static_cast<{0} *>(results_[{2}]); }\n",
                          cType(b->spec.dtype), b->name, b->index);
      if (isDynamic(b->spec))
        os << llvm::formatv("    const int64_t *result_{0}_dims() const {{ "
                            "return {1}; }\n",
                            b->name, dimsArray(b));
    }

    // Run: the shape function, the results' buffers, the entry.
    std::vector<std::string> shapeArgs, resultDims, callArgs;
    for (const Buffer &b : buffers) {
      llvm::StringRef array = b.kind == Buffer::input      ? "args_"
                              : b.kind == Buffer::variable ? "variables_"
                                                           : "results_";
      callArgs.push_back(llvm::formatv("static_cast<{0}{1} *>({2}[{3}])",
                                       b.kind == Buffer::input ? "const " : "",
                                       cType(b.spec.dtype), array, b.index)
                             .str());
      for (auto [d, size] : llvm::enumerate(b.spec.shape)) {
        if (size != TensorSpec::kDynamic)
          continue;
        std::string dim = dimsArray(&b) + "[" + std::to_string(d) + "]";
        callArgs.push_back(dim);
        if (b.kind == Buffer::result)
          resultDims.push_back("&" + dim);
        else
          shapeArgs.push_back(dim);
      }
    }
    // The shape function takes the arguments' dims, then the results'.
    shapeArgs.insert(shapeArgs.end(), resultDims.begin(), resultDims.end());
    shapeArgs.push_back("error_");
    shapeArgs.push_back("sizeof error_");
    os << "    // Runs @" << entry.signature.name
       << " on the buffers and the model's variables at the\n"
          "    // arguments' dims: 0, or a TRACEC_AOT_ code with "
          "error_message() set.\n"
          "    int Run() {\n"
       << "      int status = " << entry.symbol << "_shape("
       << llvm::join(shapeArgs, ", ") << ");\n"
       << "      if (status != TRACEC_AOT_OK)\n        return status;\n";
    for (const Buffer *b : results)
      if (isDynamic(b->spec))
        os << llvm::formatv(
            "      results_[{0}] = owned_results_[{0}].Reserve({1});\n",
            b->index, bytes(b));
    os << "      status = " << entry.symbol << "(\n          "
       << llvm::join(callArgs, ",\n          ") << ");\n"
       << "      if (status == TRACEC_AOT_NULL_BUFFER)\n"
       << "        std::strcpy(error_, \"@" << entry.signature.name
       << ": a buffer is null (an argument not set, or an "
          "allocation failed)\");\n"
       << "      return status;\n    }\n"
       << "    // Why the last Run failed (\"\" after one that did not).\n"
       << "    const char *error_message() const { return error_; }\n"
       << "\n  private:\n"
       << "    friend class " << options.className << ";\n"
       << "    void *args_[kNumArgs + 1] = {};\n"
       << "    void *results_[kNumResults + 1] = {};\n"
       << "    void **variables_ = nullptr;\n"
       << "    tracec_aot::OwnedBuffer owned_args_[kNumArgs + 1];\n"
       << "    tracec_aot::OwnedBuffer owned_results_[kNumResults + 1];\n";
    for (const Buffer *b : inputs)
      if (isDynamic(b->spec))
        writeDims(dimsArray(b), b->spec);
    for (const Buffer *b : results)
      if (isDynamic(b->spec))
        writeDims(dimsArray(b), b->spec);
    os << "    char error_[512] = \"\";\n  };\n"
       << "  " << cls << " " << toCIdentifier(entry.signature.name) << ";\n";
  }

  /// `int64_t <name>[] = {0, 4};`: a `?` starts at 0.
  void writeDims(llvm::StringRef name, const TensorSpec &spec) {
    os << "    int64_t " << name << "[" << spec.shape.size() << "] = {"
       << llvm::join(llvm::map_range(spec.shape,
                                     [](int64_t d) {
                                       return std::to_string(
                                           d == TensorSpec::kDynamic ? 0 : d);
                                     }),
                     ", ")
       << "};\n";
  }

  void writeClass() {
    const std::string &cls = options.className;
    std::vector<Buffer> variableBuffers;
    for (auto [i, v] : llvm::enumerate(variables))
      variableBuffers.push_back({Buffer::variable, v.name, v.spec, int(i)});
    std::vector<const Buffer *> variablePtrs;
    for (const Buffer &b : variableBuffers)
      variablePtrs.push_back(&b);

    os << "\n#include <cstdlib>\n#include <cstring>\n";
    if (llvm::any_of(entries, [](const EntryPoint &entry) {
          return entry.signature.hasDynamicDims();
        }))
      os << kDynamicBuffers;
    if (!options.namespaceName.empty())
      os << "\nnamespace " << options.namespaceName << " {\n";
    os << llvm::formatv(kModelClassHead, options.modelName, cls,
                        variables.size());
    writeSizes("  ", "kVariableSizes", variablePtrs);
    os << kModelAccessors;
    for (const ModelVariable &v : variables)
      os << "\"" << v.name << "\", ";
    os << "nullptr};\n    return i >= 0 && i < kNumVariables ? names[i] : "
          "nullptr;\n  }\n";
    for (const Buffer &b : variableBuffers)
      os << llvm::formatv("  {0} *var_{1}_data() {{ return static_cast<{0} "
                          "*>(variables_[{2}]); }\n",
                          cType(b.spec.dtype), b.name, b.index);
    for (const EntryPoint &entry : entries) {
      if (entry.signature.hasDynamicDims())
        writeDynamicEntryClass(entry);
      else
        writeEntryClass(entry);
    }

    // The arena: variables, then each entry's arguments and results.
    int64_t offset = 0;
    std::string layout, links;
    auto place = [&](const std::string &slot, const TensorSpec &spec) {
      layout += llvm::formatv("    {0} = arena + {1};\n", slot, offset);
      offset += paddedSize(spec);
    };
    for (auto [i, v] : llvm::enumerate(variables))
      place("variables_[" + std::to_string(i) + "]", v.spec);
    for (const EntryPoint &entry : entries) {
      std::string e = toCIdentifier(entry.signature.name);
      int inputs = 0;
      // Buffers with dynamic dims are set per call, not in the arena.
      for (const TensorSpec &spec : entry.signature.inputs) {
        if (spec.isVariable)
          continue;
        std::string slot = e + ".args_[" + std::to_string(inputs++) + "]";
        if (!isDynamic(spec))
          place(slot, spec);
      }
      for (auto [i, spec] : llvm::enumerate(entry.signature.results))
        if (!isDynamic(spec))
          place(e + ".results_[" + std::to_string(i) + "]", spec);
      links += "    " + e + ".variables_ = variables_;\n";
    }
    os << llvm::formatv(kModelClassTail, cls, links, kAlignment, layout,
                        std::max<int64_t>(offset, kAlignment));
    if (!options.namespaceName.empty())
      os << "\n} // namespace " << options.namespaceName << "\n";
  }

  llvm::raw_ostream &os;
  llvm::ArrayRef<EntryPoint> entries;
  const HeaderOptions &options;
  std::vector<ModelVariable> variables;
};
} // namespace

void tracec::aot::emitHeader(llvm::raw_ostream &os,
                             llvm::ArrayRef<EntryPoint> entries,
                             const HeaderOptions &options) {
  HeaderWriter(os, entries, options).write();
}
