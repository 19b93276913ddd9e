//===- CpuDispatch.cpp - One object, code for several x86-64 levels -------===//

#include "tracec/AOT/CpuDispatch.h"

#include "CFunctionBuilder.h"
#include "tracec/Codegen/CPU/CpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace tracec;
using namespace tracec::aot;

/// The x86-64 microarchitecture levels, as LLVM names them; level i + 1 is
/// kLevels[i].
static constexpr llvm::StringLiteral kLevels[] = {"x86-64", "x86-64-v2",
                                                  "x86-64-v3", "x86-64-v4"};

static unsigned levelOf(llvm::StringRef cpu) {
  const auto *it = llvm::find(kLevels, cpu);
  return it == std::end(kLevels) ? 0 : it - std::begin(kLevels) + 1;
}

llvm::Expected<TargetCpus> tracec::aot::parseTargetCpus(llvm::StringRef spec) {
  if (spec == "portable")
    spec = kPortableCpus;
  llvm::SmallVector<llvm::StringRef> names;
  spec.split(names, ',');
  TargetCpus result;
  if (names.size() == 1 && !levelOf(spec)) {
    // Checks the name (createCpuTargetMachine says what it accepts).
    auto machine = createCpuTargetMachine(spec);
    if (!machine)
      return machine.takeError();
    result.cpus.push_back(spec.str());
    return result;
  }
  if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    return llvm::createStringError(
        "'" + spec.str() + "': x86-64 levels need an x86-64 host");
  llvm::SmallVector<unsigned> levels;
  for (llvm::StringRef name : names) {
    unsigned level = levelOf(name.trim());
    if (!level)
      return llvm::createStringError(
          "'" + name.str() +
          "' in a list: an object picks among x86-64 levels only "
          "(x86-64, x86-64-v2, x86-64-v3, x86-64-v4)");
    if (llvm::is_contained(levels, level))
      return llvm::createStringError("'" + name.trim().str() +
                                     "' is listed twice");
    levels.push_back(level);
  }
  llvm::sort(levels);
  for (unsigned level : levels)
    result.cpus.push_back(kLevels[level - 1].str());
  result.dispatch = true;
  return result;
}

namespace {

/// A mask of CPUID register bits.
constexpr uint32_t bits(std::initializer_list<unsigned> positions) {
  uint32_t mask = 0;
  for (unsigned position : positions)
    mask |= uint32_t(1) << position;
  return mask;
}

// The features of each level, as the x86-64 psABI lists them, by CPUID
// leaf and register (Intel SDM vol. 2A, CPUID).
// x86-64-v2: SSE3, SSSE3, CMPXCHG16B, SSE4.1, SSE4.2, POPCNT; LAHF/SAHF.
constexpr uint32_t kV2Leaf1Ecx = bits({0, 9, 13, 19, 20, 23});
constexpr uint32_t kV2ExtEcx = bits({0});
// x86-64-v3: FMA, MOVBE, OSXSAVE, AVX, F16C; BMI1, AVX2, BMI2; LZCNT; the
// OS saves the SSE and AVX state (XCR0).
constexpr uint32_t kV3Leaf1Ecx = bits({12, 22, 27, 28, 29});
constexpr uint32_t kV3Leaf7Ebx = bits({3, 5, 8});
constexpr uint32_t kV3ExtEcx = bits({5});
constexpr uint32_t kV3Xcr0 = bits({1, 2});
// x86-64-v4: AVX512F, AVX512DQ, AVX512CD, AVX512BW, AVX512VL; the OS saves
// the AVX-512 state too.
constexpr uint32_t kV4Leaf7Ebx = bits({16, 17, 28, 30, 31});
constexpr uint32_t kV4Xcr0 = bits({1, 2, 5, 6, 7});
constexpr uint32_t kOsxsave = bits({27});

/// The CPU's x86-64 level (1-4) and the cap kMaxCpuVariable puts on it, in
/// LLVM IR. xgetbv runs only where the OS enabled it (OSXSAVE).
constexpr const char *kLevelSource = R"ll(
declare ptr @getenv(ptr)
declare i32 @strcmp(ptr, ptr)

define internal { i32, i32, i32, i32 } @__tracec_aot_cpuid(i32 %leaf) {
  %r = call { i32, i32, i32, i32 } asm "cpuid", "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}"(i32 %leaf, i32 0)
  ret { i32, i32, i32, i32 } %r
}

define internal i1 @__tracec_aot_has(i32 %value, i32 %mask) {
  %masked = and i32 %value, %mask
  %has = icmp eq i32 %masked, %mask
  ret i1 %has
}

define internal i32 @__tracec_aot_cpu_level() {
entry:
  %leaf0 = call { i32, i32, i32, i32 } @__tracec_aot_cpuid(i32 0)
  %maxLeaf = extractvalue { i32, i32, i32, i32 } %leaf0, 0
  %leaf1 = call { i32, i32, i32, i32 } @__tracec_aot_cpuid(i32 1)
  %ecx1 = extractvalue { i32, i32, i32, i32 } %leaf1, 2
  %ext = call { i32, i32, i32, i32 } @__tracec_aot_cpuid(i32 -2147483647)
  %extEcx = extractvalue { i32, i32, i32, i32 } %ext, 2
  %hasLeaf7 = icmp uge i32 %maxLeaf, 7
  br i1 %hasLeaf7, label %leaf7, label %xsave
leaf7:
  %leaf7r = call { i32, i32, i32, i32 } @__tracec_aot_cpuid(i32 7)
  %ebx7r = extractvalue { i32, i32, i32, i32 } %leaf7r, 1
  br label %xsave
xsave:
  %ebx7 = phi i32 [ 0, %entry ], [ %ebx7r, %leaf7 ]
  %osxsave = call i1 @__tracec_aot_has(i32 %ecx1, i32 {OSXSAVE})
  br i1 %osxsave, label %xgetbv, label %levels
xgetbv:
  %xcr = call { i32, i32 } asm "xgetbv", "={ax},={dx},{cx},~{dirflag},~{fpsr},~{flags}"(i32 0)
  %xcr0r = extractvalue { i32, i32 } %xcr, 0
  br label %levels
levels:
  %xcr0 = phi i32 [ 0, %xsave ], [ %xcr0r, %xgetbv ]
  %v2a = call i1 @__tracec_aot_has(i32 %ecx1, i32 {V2_LEAF1_ECX})
  %v2b = call i1 @__tracec_aot_has(i32 %extEcx, i32 {V2_EXT_ECX})
  %v2 = and i1 %v2a, %v2b
  %v3a = call i1 @__tracec_aot_has(i32 %ecx1, i32 {V3_LEAF1_ECX})
  %v3b = call i1 @__tracec_aot_has(i32 %ebx7, i32 {V3_LEAF7_EBX})
  %v3c = call i1 @__tracec_aot_has(i32 %extEcx, i32 {V3_EXT_ECX})
  %v3d = call i1 @__tracec_aot_has(i32 %xcr0, i32 {V3_XCR0})
  %v3ab = and i1 %v3a, %v3b
  %v3cd = and i1 %v3c, %v3d
  %v3only = and i1 %v3ab, %v3cd
  %v3 = and i1 %v3only, %v2
  %v4a = call i1 @__tracec_aot_has(i32 %ebx7, i32 {V4_LEAF7_EBX})
  %v4b = call i1 @__tracec_aot_has(i32 %xcr0, i32 {V4_XCR0})
  %v4only = and i1 %v4a, %v4b
  %v4 = and i1 %v4only, %v3
  %l2 = zext i1 %v2 to i32
  %l3 = zext i1 %v3 to i32
  %l4 = zext i1 %v4 to i32
  %s23 = add i32 %l2, %l3
  %s234 = add i32 %s23, %l4
  %level = add i32 %s234, 1
  ret i32 %level
}

@__tracec_aot_max_cpu = private unnamed_addr constant [{MAX_CPU_SIZE} x i8] c"{MAX_CPU}\00"
@__tracec_aot_level1 = private unnamed_addr constant [7 x i8] c"x86-64\00"
@__tracec_aot_level2 = private unnamed_addr constant [10 x i8] c"x86-64-v2\00"
@__tracec_aot_level3 = private unnamed_addr constant [10 x i8] c"x86-64-v3\00"

define internal i1 @__tracec_aot_is(ptr %value, ptr %name) {
  %order = call i32 @strcmp(ptr %value, ptr %name)
  %same = icmp eq i32 %order, 0
  ret i1 %same
}

; 4 unless the variable names a lower level (other values are ignored).
define internal i32 @__tracec_aot_max_level() {
entry:
  %value = call ptr @getenv(ptr @__tracec_aot_max_cpu)
  %unset = icmp eq ptr %value, null
  br i1 %unset, label %done, label %compare
compare:
  %is1 = call i1 @__tracec_aot_is(ptr %value, ptr @__tracec_aot_level1)
  %is2 = call i1 @__tracec_aot_is(ptr %value, ptr @__tracec_aot_level2)
  %is3 = call i1 @__tracec_aot_is(ptr %value, ptr @__tracec_aot_level3)
  %c3 = select i1 %is3, i32 3, i32 4
  %c2 = select i1 %is2, i32 2, i32 %c3
  %c1 = select i1 %is1, i32 1, i32 %c2
  br label %done
done:
  %cap = phi i32 [ 4, %entry ], [ %c1, %compare ]
  ret i32 %cap
}
)ll";

/// Replaces each `{KEY}` of `text`.
std::string substitute(std::string text,
                       llvm::ArrayRef<std::pair<llvm::StringRef, std::string>>
                           values) {
  for (const auto &[key, value] : values) {
    std::string placeholder = "{" + key.str() + "}";
    for (size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

/// The variant picked at the first call, then cached: the index of the
/// highest level in `levels` (ascending) at most the CPU's (and the cap),
/// or levels.size() for none. Relaxed atomics: racing first calls compute
/// the same index.
std::string selectSource(llvm::ArrayRef<unsigned> levels) {
  std::string source = R"ll(
@__tracec_aot_variant = internal global i32 -1
define internal i32 @__tracec_aot_select_variant() {
entry:
  %cached = load atomic i32, ptr @__tracec_aot_variant monotonic, align 4
  %known = icmp sge i32 %cached, 0
  br i1 %known, label %done, label %select
select:
  %level = call i32 @__tracec_aot_cpu_level()
  %cap = call i32 @__tracec_aot_max_level()
  %capped = icmp ult i32 %cap, %level
  %usable = select i1 %capped, i32 %cap, i32 %level
)ll";
  std::string previous = std::to_string(levels.size());
  for (auto [i, level] : llvm::enumerate(levels)) {
    source += llvm::formatv("  %fits{0} = icmp uge i32 %usable, {1}\n"
                            "  %pick{0} = select i1 %fits{0}, i32 {0}, i32 {2}\n",
                            i, level, previous);
    previous = "%pick" + std::to_string(i);
  }
  source += llvm::formatv(R"ll(
  store atomic i32 {0}, ptr @__tracec_aot_variant monotonic, align 4
  br label %done
done:
  %variant = phi i32 [ %cached, %entry ], [ {0}, %select ]
  ret i32 %variant
}
)ll",
                          previous);
  return source;
}

/// `name` as an LLVM IR string constant's initializer and its size.
std::pair<std::string, size_t> cString(llvm::StringRef name) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printEscapedString(name, os);
  return {escaped, name.size() + 1};
}

/// `<prefix>_target_cpu`: the name of `cpus[variant]`, or null where
/// `variant` is none of them (`dispatch`; else it is always 0).
std::string targetCpuSource(llvm::StringRef symbol,
                            llvm::ArrayRef<std::string> cpus, bool dispatch) {
  std::string source;
  std::string names;
  for (auto [i, cpu] : llvm::enumerate(cpus)) {
    auto [text, size] = cString(cpu);
    source += llvm::formatv("@__tracec_aot_cpu{0} = private unnamed_addr "
                            "constant [{1} x i8] c\"{2}\\00\"\n",
                            i, size, text);
    names += (i ? ", ptr @__tracec_aot_cpu" : "ptr @__tracec_aot_cpu") +
             std::to_string(i);
  }
  if (!dispatch)
    return source + llvm::formatv("define ptr @\"{0}\"() {{\n"
                                  "  ret ptr @__tracec_aot_cpu0\n}\n",
                                  symbol)
                        .str();
  return source + llvm::formatv(R"ll(
@__tracec_aot_cpu_names = private unnamed_addr constant [{1} x ptr] [{2}]
define ptr @"{0}"() {{
entry:
  %variant = call i32 @__tracec_aot_select_variant()
  %known = icmp ult i32 %variant, {1}
  br i1 %known, label %name, label %none
name:
  %index = zext i32 %variant to i64
  %slot = getelementptr [{1} x ptr], ptr @__tracec_aot_cpu_names, i64 0, i64 %index
  %cpu = load ptr, ptr %slot, align 8
  ret ptr %cpu
none:
  ret ptr null
}
)ll",
                                symbol, cpus.size(), names)
                      .str();
}

/// What a variant exports: its functions with a body and external linkage.
llvm::SmallVector<llvm::Function *> exportsOf(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *> exports;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasLocalLinkage())
      exports.push_back(&function);
  return exports;
}

/// Each variant's constructors (the OpenMP wait policy: the same in every
/// variant) run at load time, on any CPU: the first variant keeps them,
/// compiled for the object's baseline, and the others drop theirs.
void keepOneSetOfConstructors(
    llvm::ArrayRef<std::unique_ptr<llvm::Module>> variants) {
  for (auto [i, variant] : llvm::enumerate(variants)) {
    llvm::GlobalVariable *ctors = variant->getGlobalVariable("llvm.global_ctors");
    if (!ctors)
      continue;
    llvm::SmallVector<llvm::Function *> constructors;
    if (auto *list = llvm::dyn_cast<llvm::ConstantArray>(ctors->getInitializer()))
      for (llvm::Value *entry : list->operands())
        if (auto *fields = llvm::dyn_cast<llvm::ConstantStruct>(entry))
          if (auto *function =
                  llvm::dyn_cast<llvm::Function>(fields->getOperand(1)))
            constructors.push_back(function);
    if (i > 0) {
      ctors->eraseFromParent();
      for (llvm::Function *function : constructors)
        if (function->use_empty())
          function->eraseFromParent();
      continue;
    }
    for (llvm::Function *function : constructors) {
      function->removeFnAttr("target-cpu");
      function->removeFnAttr("target-features");
    }
  }
}

} // namespace

llvm::Expected<std::unique_ptr<llvm::Module>>
tracec::aot::linkCpuVariants(std::vector<std::unique_ptr<llvm::Module>> variants,
                             const TargetCpus &cpus, llvm::StringRef prefix) {
  assert(variants.size() == cpus.cpus.size() && !variants.empty());
  llvm::Module &first = *variants.front();
  llvm::LLVMContext &context = first.getContext();
  std::string targetCpuSymbol = (prefix + "_target_cpu").str();
  if (first.getNamedValue(targetCpuSymbol) &&
      !first.getNamedValue(targetCpuSymbol)->hasLocalLinkage())
    return llvm::createStringError(
        "@" + targetCpuSymbol + " is the name of the function that says "
        "which CPU the object's code is for: rename the entry");

  std::string source = targetCpuSource(targetCpuSymbol, cpus.cpus,
                                       cpus.dispatch);
  // Each variant's exports become `<name>.<cpu>`, called by a dispatcher of
  // their name.
  llvm::SmallVector<llvm::Function *> exports = exportsOf(first);
  if (cpus.dispatch) {
    llvm::SmallVector<unsigned> levels;
    for (const std::string &cpu : cpus.cpus)
      levels.push_back(levelOf(cpu));
    source += substitute(
        kLevelSource,
        {{"OSXSAVE", std::to_string(kOsxsave)},
         {"V2_LEAF1_ECX", std::to_string(kV2Leaf1Ecx)},
         {"V2_EXT_ECX", std::to_string(kV2ExtEcx)},
         {"V3_LEAF1_ECX", std::to_string(kV3Leaf1Ecx)},
         {"V3_LEAF7_EBX", std::to_string(kV3Leaf7Ebx)},
         {"V3_EXT_ECX", std::to_string(kV3ExtEcx)},
         {"V3_XCR0", std::to_string(kV3Xcr0)},
         {"V4_LEAF7_EBX", std::to_string(int32_t(kV4Leaf7Ebx))},
         {"V4_XCR0", std::to_string(kV4Xcr0)},
         {"MAX_CPU", kMaxCpuVariable},
         {"MAX_CPU_SIZE", std::to_string(sizeof(kMaxCpuVariable))}});
    source += selectSource(levels);
  }

  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> dispatch =
      llvm::parseAssemblyString(source, error, context);
  if (!dispatch) {
    std::string message;
    llvm::raw_string_ostream os(message);
    error.print("cpu-dispatch", os);
    return llvm::createStringError("internal error: the CPU dispatch does "
                                   "not parse: " + message);
  }
  dispatch->setDataLayout(first.getDataLayout());
  dispatch->setTargetTriple(first.getTargetTriple());

  llvm::SmallVector<std::string> renamed;
  if (cpus.dispatch) {
    for (llvm::Function *function : exports) {
      if (!function->getReturnType()->isIntegerTy(32))
        return llvm::createStringError(
            "internal error: @" + function->getName().str() +
            " does not return a status");
      for (auto [variant, cpu] : llvm::zip(variants, cpus.cpus)) {
        llvm::Function *version = variant->getFunction(function->getName());
        if (!version || version->getFunctionType() != function->getFunctionType())
          return llvm::createStringError("internal error: the variant for " +
                                         cpu + " lacks @" +
                                         function->getName().str());
      }
    }
    // The dispatchers, calling declared variants (linked below).
    llvm::Function *select = dispatch->getFunction("__tracec_aot_select_variant");
    for (llvm::Function *function : exports) {
      llvm::FunctionType *type = function->getFunctionType();
      auto *dispatcher = llvm::Function::Create(
          type, llvm::GlobalValue::ExternalLinkage, function->getName(),
          *dispatch);
      llvm::IRBuilder<> b(
          llvm::BasicBlock::Create(context, "entry", dispatcher));
      llvm::Value *variant = b.CreateCall(select);
      auto *none = llvm::BasicBlock::Create(context, "none", dispatcher);
      llvm::SwitchInst *cases = b.CreateSwitch(variant, none);
      llvm::SmallVector<llvm::Value *> args;
      for (llvm::Argument &arg : dispatcher->args())
        args.push_back(&arg);
      for (auto [i, cpu] : llvm::enumerate(cpus.cpus)) {
        std::string name = (function->getName() + "." + cpu).str();
        renamed.push_back(name);
        llvm::FunctionCallee callee = dispatch->getOrInsertFunction(name, type);
        auto *block = llvm::BasicBlock::Create(context, cpu, dispatcher);
        cases->addCase(b.getInt32(i), block);
        b.SetInsertPoint(block);
        llvm::CallInst *call = b.CreateCall(callee, args);
        call->setTailCallKind(llvm::CallInst::TCK_MustTail);
        b.CreateRet(call);
      }
      b.SetInsertPoint(none);
      b.CreateRet(b.getInt32(detail::kUnsupportedCpu));
    }
    for (auto [variant, cpu] : llvm::zip(variants, cpus.cpus))
      for (llvm::Function *function : exportsOf(*variant))
        function->setName(function->getName() + "." + cpu);
  }

  keepOneSetOfConstructors(variants);
  std::unique_ptr<llvm::Module> linked = std::move(variants.front());
  llvm::Linker linker(*linked);
  for (auto &variant : llvm::drop_begin(variants))
    if (linker.linkInModule(std::move(variant)))
      return llvm::createStringError(
          "internal error: the CPU variants do not link");
  if (linker.linkInModule(std::move(dispatch)))
    return llvm::createStringError(
        "internal error: the CPU dispatch does not link");
  for (const std::string &name : renamed)
    linked->getFunction(name)->setLinkage(llvm::GlobalValue::InternalLinkage);
  return linked;
}
