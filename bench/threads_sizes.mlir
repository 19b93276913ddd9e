// Elementwise ops of growing size, to find where splitting a loop across
// threads starts to pay (bench/run_threads.sh --sizes): run with
// --min-work 0 so that every one of them runs in parallel.

func.func @add_1024(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = trace.add %x, %y : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
func.func @add_4096(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {
  %r = trace.add %x, %y : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
func.func @add_8192(%x: tensor<8192xf32>, %y: tensor<8192xf32>) -> tensor<8192xf32> {
  %r = trace.add %x, %y : (tensor<8192xf32>, tensor<8192xf32>) -> tensor<8192xf32>
  return %r : tensor<8192xf32>
}
func.func @add_16384(%x: tensor<16384xf32>, %y: tensor<16384xf32>) -> tensor<16384xf32> {
  %r = trace.add %x, %y : (tensor<16384xf32>, tensor<16384xf32>) -> tensor<16384xf32>
  return %r : tensor<16384xf32>
}
func.func @add_32768(%x: tensor<32768xf32>, %y: tensor<32768xf32>) -> tensor<32768xf32> {
  %r = trace.add %x, %y : (tensor<32768xf32>, tensor<32768xf32>) -> tensor<32768xf32>
  return %r : tensor<32768xf32>
}
func.func @add_65536(%x: tensor<65536xf32>, %y: tensor<65536xf32>) -> tensor<65536xf32> {
  %r = trace.add %x, %y : (tensor<65536xf32>, tensor<65536xf32>) -> tensor<65536xf32>
  return %r : tensor<65536xf32>
}
func.func @add_262144(%x: tensor<262144xf32>, %y: tensor<262144xf32>) -> tensor<262144xf32> {
  %r = trace.add %x, %y : (tensor<262144xf32>, tensor<262144xf32>) -> tensor<262144xf32>
  return %r : tensor<262144xf32>
}
func.func @add_1048576(%x: tensor<1048576xf32>, %y: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %r = trace.add %x, %y : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}
