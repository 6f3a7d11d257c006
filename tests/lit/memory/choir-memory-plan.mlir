// RUN: accy-opt %s | accy-opt | FileCheck %s
// RUN: accy-opt %s --emit-bytecode | accy-opt | FileCheck %s

// The memory plan round-trips through its text form and through bytecode
// (which stores a dialect attribute as its text): inputs and outputs,
// buffers with maps over the symbols, a buffer no dispatch touches.

// CHECK-DAG:   #[[SHAPE:.+]] = affine_map<()[s0, s1] -> (s0)>
// CHECK-DAG:   #[[BYTES:.+]] = affine_map<()[s0, s1] -> (s0 * 4)>
// CHECK-LABEL: module @softmax
// CHECK-SAME:    choir.memory = #choir.memory_plan<arguments = [#choir.entry_argument<index = 0, role = input, alignment = 16, space = global>, #choir.entry_argument<index = 1, role = output, result = 0, alignment = 16, space = global>],
// CHECK-SAME:    buffers = [#choir.buffer<id = 0, element = f32, shape = #[[SHAPE]], bytes = #[[BYTES]], alignment = 64, live = [0, 2], reuses = 1, space = global>, #choir.buffer<id = 1, element = i64, shape = {{.+}}, bytes = {{.+}}, alignment = 64, live = [-1, -1], reuses = 0, space = global>],
// CHECK-SAME:    symbols = [array<i64: 0, 0>, array<i64: 0, 1>]>
module {
  module @softmax attributes {choir.memory = #choir.memory_plan<arguments = [#choir.entry_argument<index = 0, role = input, alignment = 16, space = global>, #choir.entry_argument<index = 1, role = output, result = 0, alignment = 16, space = global>], buffers = [#choir.buffer<id = 0, element = f32, shape = affine_map<()[s0, s1] -> (s0)>, bytes = affine_map<()[s0, s1] -> (s0 * 4)>, alignment = 64, live = [0, 2], reuses = 1, space = global>, #choir.buffer<id = 1, element = i64, shape = affine_map<()[s0, s1] -> ()>, bytes = affine_map<()[s0, s1] -> (8)>, alignment = 64, live = [-1, -1], reuses = 0, space = global>], symbols = [array<i64: 0, 0>, array<i64: 0, 1>]>} {
  }
}
