//===- MathAccuracyTest.cpp - Vectorized math against libm, in ulp --------===//
//
// Each elementwise math op of the trace dialect is compiled through the
// CPU pipeline (vectorized, f32 math as polynomials) and evaluated on a
// sweep of f32 bit patterns (every 4099th one: about a million values, both
// signs, normals, denormals, infinities and NaNs, covering every binade)
// plus the edge values below. Results are compared with libm in double
// (the reference rounded to f32 is within 0.5 ulp of the exact value), in
// ulps of the f32 reference; the test asserts the bound stated in
// lib/Codegen/CPU/MathAccuracy.md for each function and the exact results at the edges:
// zeros with their sign, infinities, NaN. TRACEC_MATH_TABLE=1 prints the
// measured table.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace tracec;

namespace {

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t toBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// The inputs: the sweep and the edge values.
std::vector<float> edgeValues() {
  std::vector<float> edges = {0.0f,
                              -0.0f,
                              kInf,
                              -kInf,
                              kNaN,
                              -kNaN,
                              fromBits(1),          // smallest denormal
                              fromBits(0x007fffff), // largest denormal
                              fromBits(0x00800000), // smallest normal
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::epsilon(),
                              1.0f,
                              0.5f,
                              2.0f,
                              1e-30f,
                              1e-10f,
                              1e-5f,
                              3.0e-4f,
                              88.72283f, // exp overflows above
                              88.7228394f,
                              88.73f,
                              -87.33654f, // exp's result turns denormal
                              -103.2789f, // exp underflows to 0 below
                              -103.98f,
                              -104.0f,
                              9.0f, // tanh saturates in f32
                              10.0f,
                              20.0f,
                              1e4f,
                              1e10f,
                              1e30f};
  std::vector<float> both;
  for (float v : edges) {
    both.push_back(v);
    both.push_back(-v);
  }
  return both;
}

/// Every 4099th bit pattern; TRACEC_MATH_STRIDE=N sweeps every Nth (257:
/// 16.7 million values, as lib/Codegen/CPU/MathAccuracy.md's table was measured).
std::vector<float> sampleInputs() {
  std::vector<float> inputs = edgeValues();
  uint64_t stride = 4099;
  if (const char *env = std::getenv("TRACEC_MATH_STRIDE"))
    stride = std::max<uint64_t>(1, std::strtoull(env, nullptr, 10));
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += stride)
    inputs.push_back(fromBits(static_cast<uint32_t>(bits)));
  return inputs;
}

/// The distance of `got` from the exact `ref` in ulps of `ref` rounded to
/// f32 (denormals: the denormal spacing). Infinite when exactly one of them
/// is NaN or infinite, or they differ at an infinity.
double ulpError(float got, double ref) {
  float rounded = static_cast<float>(ref);
  if (std::isnan(ref) || std::isnan(got))
    return std::isnan(ref) && std::isnan(got)
               ? 0
               : std::numeric_limits<double>::infinity();
  if (std::isinf(rounded) || std::isinf(got))
    return rounded == got ? 0 : std::numeric_limits<double>::infinity();
  int exponent = std::max(std::ilogb(std::fabs(rounded == 0 ? ref : rounded)),
                          std::numeric_limits<float>::min_exponent - 1);
  if (ref == 0)
    exponent = std::numeric_limits<float>::min_exponent - 1;
  double ulp = std::ldexp(1.0, exponent - 23);
  return std::fabs(static_cast<double>(got) - ref) / ulp;
}

/// Whether an edge result must be exact: zeros (sign included), infinities,
/// NaN and +-1 (the saturation values) have no rounding to hide behind.
bool isExactValue(double ref) {
  return ref == 0 || std::isinf(ref) || std::isnan(ref) ||
         std::fabs(ref) == 1;
}

struct MathCase {
  const char *name;
  /// The function's body on %x (tensor<Nxf32>), its result %y.
  const char *body;
  double (*reference)(double);
  /// The bound asserted (lib/Codegen/CPU/MathAccuracy.md).
  double maxUlp;
  /// Below `tailBelow`, `tailMaxUlp` holds instead.
  double tailBelow = -std::numeric_limits<double>::infinity();
  double tailMaxUlp = 0;
  /// Results below 2^-126 may be flushed to zero: where the reference is
  /// that small, the error is bounded by 2^-126 instead.
  bool flushesDenormalResults = false;
};

double sigmoidRef(double x) { return 1 / (1 + std::exp(-x)); }
double geluRef(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double rsqrtRef(double x) { return 1 / std::sqrt(x); }
double cubeRef(double x) { return x * x * x; }
double pow25Ref(double x) { return std::pow(x, 2.5); }

const MathCase kCases[] = {
    {"exp", "%y = trace.exp %x : T", [](double x) { return std::exp(x); }, 1},
    {"log", "%y = trace.log %x : T", [](double x) { return std::log(x); }, 1},
    {"log1p", "%y = trace.log1p %x : T",
     [](double x) { return std::log1p(x); }, 3},
    {"tanh", "%y = trace.tanh %x : T", [](double x) { return std::tanh(x); },
     5},
    // 1 / (1 + e^-x): e^-x overflows below -88.72, where the result is
    // below 2^-126.
    {"sigmoid", "%y = trace.sigmoid %x : T", sigmoidRef, 3,
     -std::numeric_limits<double>::infinity(), 0, true},
    {"erf", "%y = trace.erf %x : T", [](double x) { return std::erf(x); }, 5},
    // x / 2 * erfc(-x / sqrt 2): upstream's erfc is less accurate in its
    // tail (x < -3, where |gelu(x)| < 0.004).
    {"gelu", "%y = trace.gelu %x : T", geluRef, 12, -3.0, 256, true},
    {"sqrt", "%y = trace.sqrt %x : T", [](double x) { return std::sqrt(x); },
     0.5},
    // 1 / sqrt(x): two roundings.
    {"rsqrt", "%y = trace.rsqrt %x : T", rsqrtRef, 2},
    {"sin", "%y = trace.sin %x : T", [](double x) { return std::sin(x); }, 1},
    {"cos", "%y = trace.cos %x : T", [](double x) { return std::cos(x); }, 1},
    {"pow3",
     "%c = trace.constant dense<3.0> : tensor<f32>\n"
     "  %y = trace.pow %x, %c : (T, tensor<f32>) -> T",
     cubeRef, 2},
    {"pow2_5",
     "%c = trace.constant dense<2.5> : tensor<f32>\n"
     "  %y = trace.pow %x, %c : (T, tensor<f32>) -> T",
     pow25Ref, 1},
};

class MathAccuracy : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    inputs_ = new std::vector<float>(sampleInputs());
    std::string type = "tensor<" + std::to_string(inputs_->size()) + "xf32>";
    std::string source;
    for (const MathCase &c : kCases) {
      std::string body = c.body;
      for (size_t at; (at = body.find(" T")) != std::string::npos;)
        body.replace(at, 2, " " + type);
      for (size_t at; (at = body.find("(T")) != std::string::npos;)
        body.replace(at, 2, "(" + type);
      source += "func.func @" + std::string(c.name) + "(%x: " + type +
                ") -> " + type + " {\n  " + body + "\n  return %y : " + type +
                "\n}\n";
    }
    compiler_ = new Compiler();
    auto module = compiler_->parseString(source, "math-accuracy.mlir");
    ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
    auto exe = Executable::compile(*module);
    ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
    exe_ = exe->release();
  }

  static void TearDownTestSuite() {
    delete exe_;
    delete compiler_;
    delete inputs_;
  }

  static std::vector<float> run(const char *name) {
    auto function = exe_->function(name);
    EXPECT_TRUE(static_cast<bool>(function))
        << llvm::toString(function.takeError());
    if (!function)
      return {};
    auto x = Tensor::fromVector<float>(
        *inputs_, {static_cast<int64_t>(inputs_->size())});
    EXPECT_TRUE(static_cast<bool>(x)) << llvm::toString(x.takeError());
    auto results = (*function)({*x});
    EXPECT_TRUE(static_cast<bool>(results))
        << llvm::toString(results.takeError());
    if (!results)
      return {};
    return (*results)[0].toVector<float>();
  }

  static Compiler *compiler_;
  static Executable *exe_;
  static std::vector<float> *inputs_;
};

Compiler *MathAccuracy::compiler_ = nullptr;
Executable *MathAccuracy::exe_ = nullptr;
std::vector<float> *MathAccuracy::inputs_ = nullptr;

TEST_F(MathAccuracy, WithinStatedUlpsAndExactAtEdges) {
  ASSERT_NE(exe_, nullptr);
  bool printTable = std::getenv("TRACEC_MATH_TABLE") != nullptr;
  size_t numEdges = edgeValues().size();
  for (const MathCase &c : kCases) {
    std::vector<float> got = run(c.name);
    ASSERT_EQ(got.size(), inputs_->size()) << c.name;
    double worst = 0, worstTail = 0;
    float worstAt = 0, worstTailAt = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      float x = (*inputs_)[i];
      double ref = c.reference(static_cast<double>(x));
      double error = ulpError(got[i], ref);
      if (i < numEdges && isExactValue(ref)) {
        float expected = static_cast<float>(ref);
        if (std::isnan(expected))
          EXPECT_TRUE(std::isnan(got[i]))
              << c.name << "(" << x << ") = " << got[i] << ", expected nan";
        else
          EXPECT_EQ(toBits(got[i]), toBits(expected))
              << c.name << "(" << x << ") = " << got[i] << ", expected "
              << expected;
      }
      if (c.flushesDenormalResults && std::fabs(ref) < 0x1p-126) {
        EXPECT_LE(std::fabs(got[i] - ref), 0x1p-126)
            << c.name << "(" << x << ") = " << got[i] << ", expected " << ref;
        continue;
      }
      double &worstHere = x < c.tailBelow ? worstTail : worst;
      float &worstHereAt = x < c.tailBelow ? worstTailAt : worstAt;
      if (error > worstHere) {
        worstHere = error;
        worstHereAt = x;
      }
    }
    if (printTable)
      std::printf("| %-8s | %10.3g | %-14.9g | %10.3g | %-14.9g |\n", c.name,
                  worst, worstAt, worstTail, worstTailAt);
    EXPECT_LE(worst, c.maxUlp)
        << c.name << ": " << worst << " ulp at x = " << worstAt;
    EXPECT_LE(worstTail, c.tailMaxUlp)
        << c.name << ": " << worstTail << " ulp at x = " << worstTailAt
        << " (x < " << c.tailBelow << ")";
  }
}

} // namespace
