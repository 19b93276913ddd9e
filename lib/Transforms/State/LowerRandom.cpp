//===- LowerRandom.cpp - random ops -> Philox numbers ---------------------===//
//
// Element i (row-major) of the n-th run of an op with seed s is drawn from
//   (x0, x1, x2, x3) = Philox4x32-10(counter = (lo(i), hi(i), lo(n), hi(n)),
//                                    key = s)
// where lo/hi are the low and high 32 bits. A uniform number in [0, 1)
// takes the top bits of the words, as NumPy does:
//   f32: (x0 >> 8) * 2^-24            f64: ((x0 << 32 | x1) >> 11) * 2^-53
// (the f64 form of the next words (x2, x3) for a second number).
// random_uniform is low + u * (high - low), clamped below high;
// random_normal is mean + stddev * sqrt(-2 ln(1 - u1)) * cos(2 pi u2)
// (Box-Muller; u2 from x1, or from (x2, x3) for f64). f16 and bf16 are
// computed in f32 and rounded. f32 log and cos are MLIR's polynomial
// approximations (a few ulp), f64 ones libm's.
//
// The keyed ops (stateless_random_*) are pure, but draw their numbers the
// same way, so they are lowered here too: key = the key tensor's words,
// counter = (lo(i), hi(i), 0, 0), or (lo(i), hi(i), counter, stream) for
// stateless_random_bits, whose element is x0.
//
//===----------------------------------------------------------------------===//

#include "Philox.h"
#include "StateLowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// This run's number of the op: its counter, a fresh private global (renamed
/// if the name is taken), is advanced atomically, so concurrent runs get
/// distinct numbers.
Value nextRun(OpBuilder &b, Location loc, SymbolTable &symbols) {
  auto type = MemRefType::get({}, b.getI64Type());
  auto zero = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                     APInt(64, 0));
  auto global = createModuleSymbol<memref::GlobalOp>(
      b, symbols, loc, uniqueSymbolName(symbols, "__trace_random_counter"),
      b.getStringAttr("private"), type, zero, /*constant=*/false,
      /*alignment=*/nullptr);
  Value counter =
      memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  Value one = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1);
  return memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one,
                                     counter, ValueRange{});
}

/// The low and high 32-bit words of an i64.
std::pair<Value, Value> splitWords(OpBuilder &b, Location loc, Value x) {
  Value shift = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 32);
  Value high = arith::ShRUIOp::create(b, loc, x, shift);
  return {arith::TruncIOp::create(b, loc, b.getI32Type(), x),
          arith::TruncIOp::create(b, loc, b.getI32Type(), high)};
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// A uniform number in [0, 1) of `type` (f32 or f64) from the top bits of
/// `high` (and `low`, for f64).
Value uniform01(OpBuilder &b, Location loc, Type type, Value high, Value low) {
  if (type.isF32()) {
    Value shift = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 8);
    Value bits = arith::ShRUIOp::create(b, loc, high, shift);
    Value u = arith::UIToFPOp::create(b, loc, type, bits);
    return arith::MulFOp::create(b, loc, u,
                                 floatConstant(b, loc, type, 0x1p-24));
  }
  Type i64 = b.getI64Type();
  Value hi = arith::ExtUIOp::create(b, loc, i64, high);
  Value lo = arith::ExtUIOp::create(b, loc, i64, low);
  Value word = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, hi,
                            arith::ConstantIntOp::create(b, loc, i64, 32)),
      lo);
  Value bits = arith::ShRUIOp::create(
      b, loc, word, arith::ConstantIntOp::create(b, loc, i64, 11));
  Value u = arith::UIToFPOp::create(b, loc, type, bits);
  return arith::MulFOp::create(b, loc, u, floatConstant(b, loc, type, 0x1p-53));
}

/// The largest value of `type` below `high` (as `type` rounds it).
Value largestBelow(OpBuilder &b, Location loc, FloatType type, double high) {
  APFloat value(high);
  bool losesInfo;
  value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  value.next(/*nextDown=*/true);
  return arith::ConstantOp::create(b, loc, FloatAttr::get(type, value));
}

/// What a random op draws: uniform in [first, second), normal with mean
/// `first` and standard deviation `second`, or Philox's first word.
struct Distribution {
  enum Kind { Uniform, Normal, Bits } kind;
  double first = 0, second = 0;
};

Distribution distributionOf(Operation *random) {
  if (auto op = dyn_cast<RandomUniformOp>(random))
    return {Distribution::Uniform, op.getLow().convertToDouble(),
            op.getHigh().convertToDouble()};
  if (auto op = dyn_cast<RandomNormalOp>(random))
    return {Distribution::Normal, op.getMean().convertToDouble(),
            op.getStddev().convertToDouble()};
  if (auto op = dyn_cast<StatelessRandomUniformOp>(random))
    return {Distribution::Uniform, op.getLow().convertToDouble(),
            op.getHigh().convertToDouble()};
  if (auto op = dyn_cast<StatelessRandomNormalOp>(random))
    return {Distribution::Normal, op.getMean().convertToDouble(),
            op.getStddev().convertToDouble()};
  return {Distribution::Bits};
}

/// One element of the result (in `compute`, f32 or f64) from the Philox
/// words.
Value sample(OpBuilder &b, Location loc, Distribution d, Type compute,
             std::array<Value, 4> x) {
  bool wide = compute.isF64();
  if (d.kind == Distribution::Uniform) {
    Value u = uniform01(b, loc, compute, x[0], x[1]);
    Value scaled = arith::MulFOp::create(
        b, loc, u, floatConstant(b, loc, compute, d.second - d.first));
    return arith::AddFOp::create(
        b, loc, floatConstant(b, loc, compute, d.first), scaled);
  }
  Value u1 = arith::SubFOp::create(b, loc, floatConstant(b, loc, compute, 1.0),
                                   uniform01(b, loc, compute, x[0], x[1]));
  Value u2 = wide ? uniform01(b, loc, compute, x[2], x[3])
                  : uniform01(b, loc, compute, x[1], x[1]);
  Value radius = math::SqrtOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, floatConstant(b, loc, compute, -2.0),
                            math::LogOp::create(b, loc, u1)));
  Value angle = arith::MulFOp::create(
      b, loc, floatConstant(b, loc, compute, 2 * llvm::numbers::pi), u2);
  Value z =
      arith::MulFOp::create(b, loc, radius, math::CosOp::create(b, loc, angle));
  Value scaled = arith::MulFOp::create(
      b, loc, floatConstant(b, loc, compute, d.second), z);
  return arith::AddFOp::create(b, loc, floatConstant(b, loc, compute, d.first),
                               scaled);
}

/// The generic drawing `random`'s numbers, built at `b`'s insertion point,
/// of the op's sizes (`like`'s, read at run time where `?`): element i
/// from Philox under `key` at counter (lo(i), hi(i), high[0], high[1]).
/// Fails, having built part of it, where the op has `?` dims and no `like`
/// (checkRandomLowerable).
FailureOr<linalg::GenericOp> buildRandom(OpBuilder &b, Operation *random,
                                         std::array<Value, 2> high,
                                         std::array<Value, 2> key) {
  auto type = cast<RankedTensorType>(random->getResult(0).getType());
  Type element = type.getElementType();
  Type compute = element.isF64() || element.isInteger(32)
                     ? element
                     : Type(Float32Type::get(random->getContext()));
  Distribution distribution = distributionOf(random);
  Location loc = random->getLoc();
  SmallVector<OpFoldResult> sizes;
  if (type.hasStaticShape()) {
    sizes = getAsIndexOpFoldResult(b.getContext(), type.getShape());
  } else {
    ReifiedRankedShapedTypeDims shapes;
    if (failed(reifyResultShapes(b, random, shapes)))
      return failure();
    sizes = shapes[0];
  }

  // The row-major strides that number the elements as the static op of
  // those sizes does.
  SmallVector<Value> strides(type.getRank());
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    strides[d] =
        d == type.getRank() - 1
            ? Value(arith::ConstantIndexOp::create(b, loc, 1))
            : b.createOrFold<arith::MulIOp>(
                  loc, strides[d + 1],
                  getValueOrCreateConstantIndexOp(b, loc, sizes[d + 1]));
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(type.getRank())};
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value index = arith::ConstantIndexOp::create(nb, l, 0);
        for (auto [d, stride] : llvm::enumerate(strides)) {
          Value term = arith::MulIOp::create(
              nb, l, linalg::IndexOp::create(nb, l, d), stride);
          index = arith::AddIOp::create(nb, l, index, term);
        }
        auto [indexLow, indexHigh] = splitWords(
            nb, l, arith::IndexCastUIOp::create(nb, l, nb.getI64Type(), index));
        std::array<Value, 4> words = buildPhilox4x32(
            nb, l, {indexLow, indexHigh, high[0], high[1]}, key);
        if (distribution.kind == Distribution::Bits) {
          linalg::YieldOp::create(nb, l, words[0]);
          return;
        }
        Value value = sample(nb, l, distribution, compute, words);
        if (value.getType() != element)
          value = arith::TruncFOp::create(nb, l, element, value);
        if (distribution.kind == Distribution::Uniform)
          value = arith::MinimumFOp::create(
              nb, l, value,
              largestBelow(nb, l, cast<FloatType>(element),
                           distribution.second));
        linalg::YieldOp::create(nb, l, value);
      });
}

Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// The f32 log and cos of a normal generic become polynomials, which LLVM
/// vectorizes with the rest of the generator; libm's scalar calls would
/// take most of the time.
void noteApproximation(Operation *random, linalg::GenericOp generic,
                       SmallVectorImpl<Operation *> &approximate) {
  Type element = getElementTypeOrSelf(random->getResult(0).getType());
  if (distributionOf(random).kind == Distribution::Normal && !element.isF64())
    approximate.push_back(generic);
}

template <typename RandomOp>
struct LowerRandom : OpConversionPattern<RandomOp> {
  using Base = OpConversionPattern<RandomOp>;
  LowerRandom(const TypeConverter &converter, MLIRContext *context,
              SymbolTable &symbols, SmallVectorImpl<Operation *> &approximate)
      : Base(converter, context), symbols(symbols), approximate(approximate) {}

  // 1:N adaptor: the `after` tokens have become nothing.
  LogicalResult
  matchAndRewrite(RandomOp random, typename Base::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(random.getResult().getType());
    if (!type.hasStaticShape() && adaptor.getLike().empty())
      return rewriter.notifyMatchFailure(random, "checkRandomLowerable fails");
    // (`like` is a tensor, which the conversion leaves as it is.)
    Location loc = random.getLoc();
    auto run = splitWords(rewriter, loc, nextRun(rewriter, loc, symbols));
    uint64_t seed = random.getSeed();
    std::array<Value, 2> key = {
        i32Constant(rewriter, loc, static_cast<uint32_t>(seed)),
        i32Constant(rewriter, loc, static_cast<uint32_t>(seed >> 32))};
    FailureOr<linalg::GenericOp> generic =
        buildRandom(rewriter, random, {run.first, run.second}, key);
    if (failed(generic))
      return failure();
    noteApproximation(random, *generic, approximate);
    // The numbers, and no token.
    rewriter.replaceOpWithMultiple(
        random, SmallVector<SmallVector<Value>>{{generic->getResult(0)}, {}});
    return success();
  }

  SymbolTable &symbols;
  SmallVectorImpl<Operation *> &approximate;
};

/// The keyed ops: the key's words from the tensor, counter words (0, 0), or
/// (counter, stream) for the bits.
template <typename RandomOp>
struct LowerStatelessRandom : OpConversionPattern<RandomOp> {
  using Base = OpConversionPattern<RandomOp>;
  LowerStatelessRandom(const TypeConverter &converter, MLIRContext *context,
                       SmallVectorImpl<Operation *> &approximate)
      : Base(converter, context), approximate(approximate) {}

  LogicalResult
  matchAndRewrite(RandomOp random, typename Base::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = random.getLoc();
    auto word = [&](Value tensor, int64_t i) -> Value {
      return tensor::ExtractOp::create(
          rewriter, loc, tensor,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, i)});
    };
    std::array<Value, 2> key = {word(adaptor.getKey(), 0),
                                word(adaptor.getKey(), 1)};
    std::array<Value, 2> high = {i32Constant(rewriter, loc, 0),
                                 i32Constant(rewriter, loc, 0)};
    if constexpr (std::is_same_v<RandomOp, StatelessRandomBitsOp>)
      high = {tensor::ExtractOp::create(rewriter, loc, adaptor.getCounter(),
                                        ValueRange{}),
              i32Constant(rewriter, loc, random.getStream())};
    FailureOr<linalg::GenericOp> generic =
        buildRandom(rewriter, random, high, key);
    if (failed(generic))
      return failure();
    noteApproximation(random, *generic, approximate);
    rewriter.replaceOp(random, generic->getResult(0));
    return success();
  }

  SmallVectorImpl<Operation *> &approximate;
};

} // namespace

LogicalResult mlir::trace::checkRandomLowerable(Operation *random) {
  auto type = cast<RankedTensorType>(random->getResult(0).getType());
  // `like` (operand 0 where present: the tokens are control-typed) gives
  // the `?` sizes.
  bool hasLike = llvm::any_of(random->getOperandTypes(), [](Type t) {
    return isa<RankedTensorType>(t);
  });
  if (!type.hasStaticShape() && !hasLike)
    return random->emitOpError("needs a statically shaped result or 'like' "
                               "to be lowered, got ")
           << type;
  return success();
}

void mlir::trace::populateRandomLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    SymbolTable &symbols, SmallVectorImpl<Operation *> &approximate) {
  patterns.add<LowerRandom<RandomUniformOp>, LowerRandom<RandomNormalOp>>(
      converter, patterns.getContext(), symbols, approximate);
  patterns.add<LowerStatelessRandom<StatelessRandomUniformOp>,
               LowerStatelessRandom<StatelessRandomNormalOp>,
               LowerStatelessRandom<StatelessRandomBitsOp>>(
      converter, patterns.getContext(), approximate);
}

LogicalResult
mlir::trace::approximateRandomMath(ArrayRef<Operation *> generics) {
  if (generics.empty())
    return success();
  RewritePatternSet patterns(generics.front()->getContext());
  populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
    return name == "math.log" || name == "math.cos";
  });
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (Operation *generic : generics)
    if (failed(applyPatternsGreedily(generic, frozen)))
      return generic->emitOpError("math approximations did not converge");
  return success();
}
