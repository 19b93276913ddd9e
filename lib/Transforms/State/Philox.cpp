//===- Philox.cpp - The Philox4x32-10 counter-based generator as arith ops ===//
//
// One round, as in Random123's philox4x32round:
//   (hi0, lo0) = M0 * c0;  (hi1, lo1) = M1 * c2     (32x32 -> 64 bits)
//   c = (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)
// and the key is bumped by the Weyl constants (W0, W1) between rounds.
//
//===----------------------------------------------------------------------===//

#include "Philox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

static constexpr uint32_t kM0 = 0xD2511F53, kM1 = 0xCD9E8D57;
static constexpr uint32_t kW0 = 0x9E3779B9, kW1 = 0xBB67AE85;
static constexpr int kRounds = 10;

static Value constantU32(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getI32Type(), APInt(32, value)));
}

std::array<Value, 4> mlir::trace::buildPhilox4x32(OpBuilder &b, Location loc,
                                                  std::array<Value, 4> c,
                                                  uint64_t key) {
  return buildPhilox4x32(
      b, loc, c,
      {constantU32(b, loc, static_cast<uint32_t>(key)),
       constantU32(b, loc, static_cast<uint32_t>(key >> 32))});
}

std::array<Value, 4> mlir::trace::buildPhilox4x32(OpBuilder &b, Location loc,
                                                  std::array<Value, 4> c,
                                                  std::array<Value, 2> key) {
  Value m0 = constantU32(b, loc, kM0), m1 = constantU32(b, loc, kM1);
  Value w0 = constantU32(b, loc, kW0), w1 = constantU32(b, loc, kW1);
  // (Constant keys fold to one constant per round.)
  auto [k0, k1] = key;
  for (int round = 0; round < kRounds; ++round) {
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c[2]);
    Value x0 = arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]);
    Value x2 = arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]);
    c = {arith::XOrIOp::create(b, loc, x0, k0), p1.getLow(),
         arith::XOrIOp::create(b, loc, x2, k1), p0.getLow()};
    if (round + 1 < kRounds) {
      k0 = b.createOrFold<arith::AddIOp>(loc, k0, w0);
      k1 = b.createOrFold<arith::AddIOp>(loc, k1, w1);
    }
  }
  return c;
}
