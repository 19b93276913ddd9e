//===- tracec-run.cpp - Compile and run one function of a module ----------===//
//
//   tracec-run model.mlir --entry f --input x=@x.npy --input y=1.5 \
//       --input z="[[1,2],[3,4]]" [--output-dir out/] [--benchmark[=N]]
//
// Inputs are matched to the entry's arguments in order; the name before '='
// labels the input in messages. Results are printed like NumPy does, or
// written as <entry>_result<i>.npy files with --output-dir.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "InputParser.h"

#include "tracec/Runtime/Executable.h"
#include "../Common/ToolOptions.h"
#include "../Common/ToolVersion.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace tracec;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tracec-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(toolCategory));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::Required, cl::value_desc("name"),
                                  cl::cat(toolCategory));
static cl::list<std::string>
    inputs("input",
           cl::desc("An argument, in order: name=@file.npy, name=1.5 or "
                    "name=\"[[1,2],[3,4]]\" (a bf16 argument reads an f32 "
                    ".npy, rounded to nearest even: NumPy has no bf16)"),
           cl::value_desc("name=value"), cl::cat(toolCategory));
static cl::opt<std::string>
    outputDir("output-dir",
              cl::desc("Write results as .npy files here instead of printing "
                       "(bf16 ones as f32, exactly)"),
              cl::value_desc("dir"), cl::cat(toolCategory));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                                  cl::init(3), cl::Prefix,
                                  cl::cat(toolCategory));
static cl::opt<bool> ukernels(
    "ukernels",
    cl::desc("--target=cpu: f32 contractions call precompiled micro-kernels "
             "instead of generated ones (faster compiles, slower calls; "
             "default false)"),
    cl::init(false), cl::cat(toolCategory));
static cl::opt<bool> ukernelRelayouts(
    "ukernel-relayouts",
    cl::desc("--target=cpu: the relayouts of packed contractions call the "
             "precompiled relayout kernel instead of generated code (as "
             "fast, faster to compile; default true)"),
    cl::init(true), cl::cat(toolCategory));
static cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("--target=cpu: threads LLVM's optimizer and code generator "
             "use, one partition of the module each (default 0: one per "
             "core)"),
    cl::init(0), cl::cat(toolCategory));
static cl::opt<int64_t> parallelMinWork(
    "parallel-min-work",
    cl::desc("--target=cpu with threads: the least work (in operations, a "
             "vector op counting its lanes) a loop nest must do to be split "
             "across threads (default: CompileOptions::parallelMinWork)"),
    cl::init(CompileOptions().parallelMinWork), cl::cat(toolCategory));
static cl::opt<bool> adaptiveParallel(
    "adaptive-parallel",
    cl::desc("--target=cpu with threads: a call forks its parallel "
             "regions only where the entry's timed calls showed that "
             "forking pays (default on; off: every region forks)"),
    cl::init(CompileOptions().adaptiveParallel), cl::cat(toolCategory));
static cl::opt<bool> outlineKernels(
    "outline-kernels",
    cl::desc("--target=cpu: compile each loop nest as a kernel function of "
             "its own, vectorized ones with a lean LLVM pipeline (default "
             "on; off: one function, LLVM's full pipeline)"),
    cl::init(true), cl::cat(toolCategory));
static cl::opt<bool> dedupKernels(
    "dedup-kernels",
    cl::desc("--target=cpu: compile each op the module repeats (a graph "
             "unrolled over steps) once, as a function every copy calls "
             "(default on; off: every copy is compiled)"),
    cl::init(CompileOptions().dedupKernels), cl::cat(toolCategory));
static cl::opt<bool> workspaceShareBytes(
    "workspace-share-bytes",
    cl::desc("--target=cpu: intermediates never live together share the "
             "workspace's bytes (default on; off: each has bytes of its "
             "own)"),
    cl::init(CompileOptions().workspaceShareBytes), cl::cat(toolCategory));
static cl::opt<Target> target(
    "target", cl::desc("Where the function runs"), cl::init(Target::cpu),
    cl::values(clEnumValN(Target::cpu, "cpu", "the host CPU (default)"),
               clEnumValN(Target::cuda, "cuda",
                          "an NVIDIA GPU through the CUDA driver")),
                          cl::cat(toolCategory));
static cl::opt<std::string>
    chip("chip", cl::desc("--target=cuda: GPU architecture of the PTX"),
         cl::init("sm_80"), cl::value_desc("sm_NN"), cl::cat(toolCategory));
static cl::opt<bool>
    tf32("tf32",
         cl::desc("--target=cuda: f32 matmuls on tensor cores in TF32 "
                  "(f32 accumulation)"),
         cl::init(false), cl::cat(toolCategory));
static cl::opt<unsigned>
    repeat("repeat",
           cl::desc("Run the function this many times, untimed (for leak "
                    "checks); the results of the last run are reported"),
           cl::init(1), cl::value_desc("n"), cl::cat(toolCategory));
static cl::opt<std::string> benchmark(
    "benchmark", cl::ValueOptional,
    cl::desc("Time n calls (default: as many as fit in a second, at least "
             "5) after the warm-up and print the compile time and the "
             "min/median/max time per call; the results of the last call "
             "are reported"),
    cl::value_desc("n"), cl::cat(toolCategory));
static cl::opt<unsigned>
    benchmarkWarmup("benchmark-warmup",
                    cl::desc("--benchmark: untimed calls first (default 2)"),
                    cl::init(2), cl::value_desc("n"), cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tracec-run") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tracec::setToolVersionPrinter("tracec-run");
  // libLLVM registers an unrelated, undocumented --threads; ours replaces
  // it, so it is registered here, once that one is gone.
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->removeArgument();
  static cl::opt<unsigned> threads(
      "threads",
      cl::desc("Threads that large loops are split across (OpenMP): 0 = "
               "the OpenMP default, OMP_NUM_THREADS or one per core "
               "(default); 1 = serial code"),
      cl::init(0), cl::value_desc("n"), cl::cat(toolCategory));
  hideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "tracec-run: compile and run a trace function\n");

  Compiler compiler;
  auto module = compiler.parseFile(inputFile);
  if (!module)
    return fail(llvm::toString(module.takeError()));
  BenchmarkOptions benchmarkOptions;
  benchmarkOptions.warmupCalls = benchmarkWarmup;
  if (benchmark.getNumOccurrences()) {
    if (repeat.getNumOccurrences())
      return fail("--repeat and --benchmark both set how often the function "
                  "runs: use --benchmark=N alone");
    unsigned calls;
    if (!benchmark.empty() &&
        (llvm::StringRef(benchmark).getAsInteger(10, calls) || calls == 0))
      return fail("--benchmark=" + benchmark +
                  ": expected a number of calls of at least 1");
    if (!benchmark.empty())
      benchmarkOptions.calls = calls;
  }

  CompileOptions options;
  options.target = target;
  options.optLevel = optLevel;
  options.chip = chip;
  options.tf32 = tf32;
  options.threads = threads;
  options.parallelMinWork = parallelMinWork;
  options.adaptiveParallel = adaptiveParallel;
  options.outlineKernels = outlineKernels;
  options.dedupKernels = dedupKernels;
  options.workspaceShareBytes = workspaceShareBytes;
  options.ukernels = ukernels;
  options.ukernelRelayouts = ukernelRelayouts;
  options.compileThreads = compileThreads;
  options.entries = {entry};
  auto compileStart = std::chrono::steady_clock::now();
  auto exe = Executable::compile(*module, options);
  if (!exe)
    return fail(llvm::toString(exe.takeError()));
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  auto function = (*exe)->function(entry);
  if (!function)
    return fail(llvm::toString(function.takeError()));

  const Signature &signature = function->signature();
  if (inputs.size() != signature.inputs.size())
    return fail("@" + entry + " takes " +
                llvm::Twine(signature.inputs.size()) + " arguments but " +
                llvm::Twine(inputs.size()) + " --input values were given " +
                "(signature " + signature.str() + ")");

  std::vector<Tensor> arguments;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto [name, value] = llvm::StringRef(input).split('=');
    if (value.empty() && !llvm::StringRef(input).contains('='))
      return fail("--input '" + input + "' is not name=value");
    std::string label = "input '" + name.str() + "' (argument " +
                        std::to_string(i) + " of @" + entry + ")";
    auto tensor = parseInputValue(value, signature.inputs[i]);
    if (!tensor)
      return fail(label + ": " + llvm::toString(tensor.takeError()));
    if (!signature.inputs[i].matches(*tensor))
      return fail(label + ": expected " + signature.inputs[i].str() +
                  ", got " + tensor->typeString());
    arguments.push_back(std::move(*tensor));
  }

  // Every call writes into the same preallocated outputs, whose shapes
  // (with dynamic dims) the function's shape function computes.
  auto shapes = function->resultShapes(arguments);
  if (!shapes)
    return fail(llvm::toString(shapes.takeError()));
  std::vector<Tensor> outputs;
  for (auto [i, spec, shape] : llvm::enumerate(signature.results, *shapes)) {
    auto output = Tensor::empty(spec.dtype, shape);
    if (!output)
      return fail("@" + signature.name + ": result " + std::to_string(i) +
                  ": " + llvm::toString(output.takeError()));
    outputs.push_back(std::move(*output));
  }
  if (benchmark.getNumOccurrences()) {
    auto seconds =
        runBenchmark(*function, arguments, outputs, benchmarkOptions);

    if (!seconds)
      return fail(llvm::toString(seconds.takeError()));
    printBenchmarkReport(llvm::outs(), entry, *seconds,
                         benchmarkOptions.warmupCalls, compileSeconds,
                         describeCompile((*exe)->compileStats()));
  } else {
    if (repeat == 0)
      return fail("--repeat must be at least 1");
    for (unsigned i = 0; i < repeat; ++i)
      if (auto error = function->call(arguments, outputs))
        return fail(llvm::toString(std::move(error)));
  }

  if (outputDir.empty()) {
    for (auto [i, result] : llvm::enumerate(outputs))
      llvm::outs() << "result " << i << ": " << result.typeString() << "\n"
                   << result.toString() << "\n";
    return 0;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
    return fail("cannot create --output-dir '" + outputDir +
                "': " + ec.message());
  for (auto [i, result] : llvm::enumerate(outputs)) {
    llvm::SmallString<128> path(outputDir);
    llvm::sys::path::append(path, entry + "_result" + std::to_string(i) + ".npy");
    if (auto error = result.saveNpy(path))
      return fail(llvm::toString(std::move(error)));
    llvm::outs() << "wrote " << path << "\n";
  }
  return 0;
}
