//===- tracec.cpp - The ahead-of-time compiler ----------------------------===//
//
//   tracec model.mlir --entry step --entry predict -o model.o \
//       --header model.h [--class Model] [--namespace ns] \
//       [--graphdef-config config.pbtxt] \
//       [--target-cpu portable|x86-64-v2,x86-64-v3,...|native|...]
//       [--cuda-chip sm_80|sm_90|... [--tf32]]
//       [--emit=obj|asm|llvm|mlir] [--threads N]
//
// Compiles the entries with the CPU pipeline (autodiff included) and LLVM
// at -O3 into an object file that needs only libc and libm (and TracecABI,
// C with no LLVM, where the model prints), and writes a
// C/C++ header declaring them: int <prefix>_<entry>(buffers...) each, and
// a class owning the variables and buffers. The prefix is the class name
// lower-cased, else the model file's stem. With --graphdef-config, the
// model is a TensorFlow GraphDef (.pb/.pbtxt) and the config tfcompile's
// tf2xla.Config: its feeds, fetches and variables name the entry @main's
// arguments and results. By default the object carries the code twice,
// for x86-64-v3 and x86-64-v4, and picks at run time (AOT/CpuDispatch.h).
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/AotCompiler.h"
#include "tracec/AOT/HeaderEmitter.h"
#include "tracec/Runtime/Compiler.h"
#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Codegen/CPU/MachineCode.h"
#include "tracec/Target/GraphDef.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "../Common/ToolOptions.h"
#include "../Common/ToolVersion.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace tracec;
using namespace tracec::aot;
namespace cl = llvm::cl;

enum class EmitKind { obj, asm_, llvm, mlir };

static cl::OptionCategory toolCategory("tracec options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(toolCategory));
static cl::list<std::string> entryNames("entry",
                                        cl::desc("A function to export"),
                                        cl::OneOrMore, cl::value_desc("name"),
                                        cl::cat(toolCategory));
static cl::opt<std::string> graphdefConfig(
    "graphdef-config",
    cl::desc("The model is a TensorFlow GraphDef; this is tfcompile's "
             "tf2xla.Config (text): feeds, fetches, variables"),
    cl::value_desc("config.pbtxt"), cl::cat(toolCategory));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::Required, cl::value_desc("file"),
                                       cl::cat(toolCategory));
static cl::opt<std::string> headerFile("header",
                                       cl::desc("Write the C/C++ header here"),
                                       cl::value_desc("file.h"),
                                       cl::cat(toolCategory));
static cl::opt<std::string>
    className("class",
              cl::desc("C++ class name; its lower case prefixes the C "
                       "symbols (default: from the model file's name)"),
              cl::value_desc("Name"), cl::cat(toolCategory));
static cl::opt<std::string>
    namespaceName("namespace", cl::desc("C++ namespace of the class (a::b)"),
                  cl::value_desc("ns"), cl::cat(toolCategory));
static cl::opt<std::string>
    targetCpu("target-cpu",
              cl::desc("CPUs to generate code for: portable (default: "
                       "x86-64-v3 and x86-64-v4, picked at run time), a "
                       "list of x86-64 levels to pick from "
                       "(x86-64-v2,x86-64-v3,x86-64-v4), native, or one "
                       "LLVM CPU name such as skylake-avx512"),
              cl::init("portable"), cl::value_desc("cpu"), cl::cat(toolCategory));
static cl::opt<std::string>
    cudaChip("cuda-chip",
             cl::desc("Compile for an NVIDIA GPU of this architecture "
                      "(sm_80, sm_90, ...): PTX embedded in the object, "
                      "which then links TracecCudaRuntime and libdl"),
             cl::value_desc("sm_NN"), cl::cat(toolCategory));
static cl::opt<bool>
    tf32("tf32",
         cl::desc("--cuda-chip: f32 matmuls on tensor cores in TF32 (f32 "
                  "accumulation, 10-bit mantissas; sm_80 and later)"),
         cl::init(false), cl::cat(toolCategory));
static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What -o receives"), cl::init(EmitKind::obj),
    cl::values(clEnumValN(EmitKind::obj, "obj", "an object file (default)"),
               clEnumValN(EmitKind::asm_, "asm", "assembly"),
               clEnumValN(EmitKind::llvm, "llvm", "optimized LLVM IR"),
               clEnumValN(EmitKind::mlir, "mlir",
                          "the module in the LLVM dialect, with the C "
                          "entry points")), cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tracec") << message << "\n";
  return 1;
}

/// Flushes `file`; a write error (a full disk, /dev/full) is reported as
/// an error naming the file and cleared, so that the stream does not abort
/// the process when it is destroyed, which also removes the partial file.
static bool finishOutput(llvm::ToolOutputFile &file, std::string &error) {
  llvm::raw_fd_ostream &os = file.os();
  os.flush();
  if (!os.has_error())
    return true;
  error = "cannot write '" + file.getFilename().str() +
          "': " + os.error().message();
  os.clear_error();
  return false;
}

/// Opens `path` for writing; nothing is left there unless keep() is called.
static std::unique_ptr<llvm::ToolOutputFile> openOutput(llvm::StringRef path,
                                                        std::string &error) {
  std::error_code ec;
  auto file = std::make_unique<llvm::ToolOutputFile>(
      path, ec,
      emitKind == EmitKind::obj && path == outputFile ? llvm::sys::fs::OF_None
                                                      : llvm::sys::fs::OF_Text);
  if (ec) {
    error = "cannot write '" + path.str() + "': " + ec.message();
    return nullptr;
  }
  return file;
}

/// The GraphDef `inputFile` imported as tfcompile's config says; the
/// arguments of its entry are named by the config (feed and variable
/// names), else by their TensorFlow nodes.
static mlir::OwningOpRef<mlir::ModuleOp>
importGraph(mlir::MLIRContext &context, ArgumentNames &names) {
  GraphImportOptions options;
  if (mlir::failed(readTf2XlaConfig(graphdefConfig, options, &context)))
    return nullptr;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importGraphDefFile(inputFile, options, &context);
  if (!module)
    return nullptr;
  auto entry = module->lookupSymbol<mlir::func::FuncOp>(options.entryName);
  std::vector<std::string> &argNames = names[options.entryName];
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    std::string name;
    for (const char *attr : {"trace.name", "tf.name", "tf.variable"})
      if (auto value = entry.getArgAttrOfType<mlir::StringAttr>(i, attr))
        if (name.empty())
          name = value.str();
    argNames.push_back(name);
  }
  return module;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tracec::setToolVersionPrinter("tracec");
  // libLLVM registers an unrelated, undocumented --threads; ours replaces
  // it, so it is registered here, once that one is gone.
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->removeArgument();
  static cl::opt<unsigned> threads(
      "threads",
      cl::desc("Threads that large loops are split across: 1 = serial code "
               "needing only libc and libm (default); 0 = the OpenMP "
               "default at run time (OMP_NUM_THREADS, else one per core); "
               "N = N. Other than 1, the program links libomp (-lomp)"),
      cl::init(1), cl::value_desc("n"), cl::cat(toolCategory));
  hideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tracec: compile trace functions to an object file and a "
      "C/C++ header\n");

  std::string stem = toCIdentifier(llvm::sys::path::stem(inputFile), "model_");
  std::string cls =
      className.empty() ? toClassName(stem, "Model") : className.getValue();
  // Names reach the generated header as they are: only C++ names pass.
  if (!isCppName(cls))
    return fail("--class '" + cls +
                "' is not a C++ identifier (or is a keyword)");
  if (!namespaceName.empty() && !isCppNamespace(namespaceName))
    return fail("--namespace '" + namespaceName +
                "' is not a C++ namespace name (identifiers separated by "
                "'::', none a keyword)");
  if (tf32 && cudaChip.empty())
    return fail("--tf32 is for GPU code: it needs --cuda-chip");
  std::string prefix = className.empty() ? llvm::StringRef(stem).lower()
                                         : llvm::StringRef(cls).lower();

  // Open the outputs first: an unwritable path fails before compiling.
  std::string error;
  auto output = openOutput(outputFile, error);
  if (!output)
    return fail(error);
  std::unique_ptr<llvm::ToolOutputFile> header;
  if (!headerFile.empty() && !(header = openOutput(headerFile, error)))
    return fail(error);

  auto file = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/true);
  if (!file)
    return fail("cannot read '" + inputFile +
                "': " + file.getError().message());
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  Compiler compiler;
  mlir::MLIRContext &context = compiler.context();
  // Errors name the source location; the generic op dump adds nothing.
  context.printOpOnDiagnostic(false);
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  ArgumentNames names;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      graphdefConfig.empty() ? parseModel(sourceMgr, &context, names)
                             : importGraph(context, names);
  if (!module)
    return 1;
  // The CPU sizes the micro-kernels too: check its name before lowering.
  auto cpus = parseTargetCpus(targetCpu);
  if (!cpus)
    return fail("--target-cpu: " + llvm::toString(cpus.takeError()));
  auto entries = collectEntryPoints(*module, entryNames, prefix, names);
  if (mlir::failed(entries))
    return 1;
  llvm::LLVMContext llvmContext;
  auto printLowered = [&](mlir::ModuleOp lowered, llvm::StringRef cpu) {
    if (cpus->cpus.size() > 1)
      output->os() << "// target-cpu " << cpu << "\n";
    lowered.print(output->os());
  };
  auto code = compileObjectCode(
      *module, *entries, *cpus, prefix, llvmContext, CudaTarget{cudaChip, tf32},
      threads,
      emitKind == EmitKind::mlir
          ? llvm::function_ref<void(mlir::ModuleOp, llvm::StringRef)>(
                printLowered)
          : nullptr);
  if (mlir::failed(code))
    return 1;
  if (emitKind == EmitKind::llvm) {
    code->module->print(output->os(), nullptr);
  } else if (emitKind != EmitKind::mlir) {
    if (auto error =
            emitMachineCode(*code->module, *code->machine,
                            emitKind == EmitKind::obj
                                ? llvm::CodeGenFileType::ObjectFile
                                : llvm::CodeGenFileType::AssemblyFile,
                            output->os()))
      return fail(llvm::toString(std::move(error)));
  }

  if (header)
    emitHeader(header->os(), *entries,
               {llvm::sys::path::filename(inputFile).str(), prefix, cls,
                namespaceName});
  if (!finishOutput(*output, error) ||
      (header && !finishOutput(*header, error)))
    return fail(error);
  output->keep();
  if (header)
    header->keep();
  return 0;
}
