//===- HeaderEmitter.cpp - The C/C++ header of an AOT-compiled model ------===//
//
// The C part declares one destination-passing function per entry plus
// macros for every buffer's rank, shape, element count and bytes. The C++
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

// The fixed parts of the C++ class; formatv fills in the {N}s ({{ is {).
constexpr const char *kEntryAccessors =
    R"(    static constexpr size_t ArgSize(int i) {
      return i >= 0 && i < kNumArgs ? kArgSizes[i] : 0;
    }
    static constexpr size_t ResultSize(int i) {
      return i >= 0 && i < kNumResults ? kResultSizes[i] : 0;
    }
    // An argument's buffer: the class's own, or the caller's after
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
       << "// or 1 if a buffer is null. The object needs only libc and "
          "libm\n"
       << "// (and TracecABI where the model uses trace.print).\n\n"
       << "#ifndef " << guard << "\n#define " << guard << "\n\n"
       << "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
       << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
    for (const EntryPoint &entry : entries)
      writeCEntry(entry);
    os << "\n#ifdef __cplusplus\n} // extern \"C\"\n";
    writeClass();
    os << "#endif // __cplusplus\n\n#endif // " << guard << "\n";
  }

private:
  void writeCEntry(const EntryPoint &entry) {
    std::vector<Buffer> buffers = buffersOf(entry, variables);
    os << "\n/* " << logicalSignature(entry, buffers) << "\n";
    for (const Buffer &b : buffers)
      os << llvm::formatv(" *   {0,-12} {1,-24} {2,10} bytes  {3}\n", b.name,
                          b.spec.str(), byteSize(b.spec),
                          b.kind == Buffer::input      ? "input"
                          : b.kind == Buffer::variable ? "variable (in/out)"
                                                       : "result");
    os << " */\nint " << entry.symbol << "(";
    for (auto [i, b] : llvm::enumerate(buffers))
      os << (i ? ", " : "") << (b.kind == Buffer::input ? "const " : "")
         << cType(b.spec.dtype) << " *" << b.name;
    os << ");\n\n";

    std::string macro = upper(entry.symbol);
    os << "#define " << macro << "_NUM_ARGS " << entry.signature.inputs.size()
       << "\n#define " << macro << "_NUM_RESULTS "
       << entry.signature.results.size() << "\n";
    for (const Buffer &b : buffers) {
      std::string name = macro +
                         (b.kind == Buffer::result ? "_RESULT_" : "_ARG_") +
                         upper(b.name);
      os << "#define " << name << "_RANK " << b.spec.shape.size() << "\n";
      if (!b.spec.shape.empty())
        os << "#define " << name << "_SHAPE {"
           << llvm::join(
                  llvm::map_range(b.spec.shape,
                                  [](int64_t d) { return std::to_string(d); }),
                  ", ")
           << "}\n";
      os << "#define " << name << "_SIZE " << elementCount(b.spec) << "\n"
         << "#define " << name << "_BYTES " << byteSize(b.spec) << "\n";
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

  void writeEntryClass(const EntryPoint &entry) {
    std::vector<Buffer> buffers = buffersOf(entry, variables);
    std::vector<const Buffer *> inputs, results;
    for (const Buffer &b : buffers) {
      if (b.kind == Buffer::input)
        inputs.push_back(&b);
      else if (b.kind == Buffer::result)
        results.push_back(&b);
    }
    std::string cls = toClassName(entry.signature.name, "Entry");
    if (cls == options.className)
      cls += "Entry"; // a member may not be named after its class
    os << "\n  // " << logicalSignature(entry, buffers) << "\n"
       << "  class " << cls << " {\n  public:\n"
       << "    // The arguments that are not variables, in order.\n"
       << "    static constexpr int kNumArgs = " << inputs.size() << ";\n"
       << "    static constexpr int kNumResults = " << results.size() << ";\n";
    writeSizes("    ", "kArgSizes", inputs);
    writeSizes("    ", "kResultSizes", results);
    os << kEntryAccessors;
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

  void writeClass() {
    const std::string &cls = options.className;
    std::vector<Buffer> variableBuffers;
    for (auto [i, v] : llvm::enumerate(variables))
      variableBuffers.push_back({Buffer::variable, v.name, v.spec, int(i)});
    std::vector<const Buffer *> variablePtrs;
    for (const Buffer &b : variableBuffers)
      variablePtrs.push_back(&b);

    os << "\n#include <cstdlib>\n#include <cstring>\n";
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
    for (const EntryPoint &entry : entries)
      writeEntryClass(entry);

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
      for (const TensorSpec &spec : entry.signature.inputs)
        if (!spec.isVariable)
          place(e + ".args_[" + std::to_string(inputs++) + "]", spec);
      for (auto [i, spec] : llvm::enumerate(entry.signature.results))
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
