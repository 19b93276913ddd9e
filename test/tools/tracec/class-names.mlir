// Class names come from one function (tracec::aot::toClassName) for the
// model's default class (the file's stem) and the entries' classes: words
// split at every character that is not a letter or digit, a fallback name
// where nothing is left. A stem of underscores only used to give an empty
// default class ("--class '' is not a C++ identifier"), and an entry named
// @train.step a class "Train.step" that did not compile. A name that is a
// C or C++ keyword (an entry @delete, an argument %class) gets a '_'
// after it; the header compiles.
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/_.mlir
// RUN: tracec %t/_.mlir --entry train.step --entry predict_2 --entry delete -o %t/m.o --header %t/m.h
// RUN: FileCheck %s < %t/m.h
// RUN: clang++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ %t/m.h

// CHECK: class Model {
// CHECK: class TrainStep {
// CHECK: TrainStep train_step;
// CHECK: class Predict2 {
// CHECK: Predict2 predict_2;
// CHECK: class Delete {
// CHECK: class_
// CHECK: Delete delete_;
func.func @train.step(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = trace.exp %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @predict_2(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = trace.neg %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @delete(%class: tensor<2xf32>) -> tensor<2xf32> {
  return %class : tensor<2xf32>
}
