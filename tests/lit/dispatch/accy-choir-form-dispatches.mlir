// RUN: accy-opt %s --split-input-file --pass-pipeline='builtin.module(builtin.module(accy-choir-drop-unit-dims,accy-choir-form-dispatches))' | FileCheck %s

// softmax: the elementwise exp(x - max) has two consumers; it is duplicated
// into both, so there is no intermediate exp tensor. The sum of exp reduces
// the max's rows again and the normalization maps them: both run after the
// max in its dispatch (a row pipeline), one dispatch in all. The fills
// become part of their reductions; the sum's moves before the max.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module {
  module @softmax attributes {accy.kernel = "softmax"} {
    func.func @softmax(%x: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %e0 = tensor.empty(%n) : tensor<?xf32>
      %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
      %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%f0 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%e1 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %s = arith.subf %a, %m : f32
        %e = math.exp %s : f32
        linalg.yield %e : f32
      } -> tensor<?x?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<?x?xf32>) outs(%f2 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %e3 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%e3 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %s: f32, %o: f32):
        %q = arith.divf %a, %s : f32
        linalg.yield %q : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }
}

// CHECK-LABEL: func.func @softmax
// CHECK:         linalg.fill {choir.member = #choir.member<0, init>}
// CHECK:         linalg.fill {choir.member = #choir.member<0, init>}
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      choir.member = #choir.member<0>
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[MAX]] :
// CHECK-SAME:      choir.member = #choir.member<0, epilogue>
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[MAX]], %[[SUM]] :
// CHECK-SAME:      choir.member = #choir.member<0, epilogue>
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.divf
// CHECK-NOT:     linalg.generic

// -----

// A producer read through a broadcast is not fused (every consumer element
// would recompute it), and no producer fuses into a contraction;
// linalg.matmul is generalized. The bias add after the matmul reads the
// matmul's result at each of its points: it is the contraction's epilogue.

module {
  module @no_fusion attributes {accy.kernel = "no_fusion"} {
    func.func @no_fusion(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %v: tensor<16xf32>, %out0: tensor<8x16xf32> {accy.result = 0 : i64}) -> tensor<8x16xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %ev = tensor.empty() : tensor<16xf32>
      %ex = linalg.generic {indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> (j)>], iterator_types = ["parallel"]} ins(%v : tensor<16xf32>) outs(%ev : tensor<16xf32>) {
      ^bb0(%x: f32, %o: f32):
        %e = math.exp %x : f32
        linalg.yield %e : f32
      } -> tensor<16xf32>
      %e = tensor.empty() : tensor<8x16xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
      %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
      %e1 = tensor.empty() : tensor<8x16xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %ex : tensor<8x16xf32>, tensor<16xf32>) outs(%e1 : tensor<8x16xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<8x16xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      return %res : tensor<8x16xf32>
    }
  }
}

// CHECK-LABEL: func.func @no_fusion
// CHECK:         %[[EXP:.+]] = linalg.generic
// CHECK-SAME:      choir.member = #choir.member<0>
// CHECK:           math.exp
// CHECK:         linalg.fill {choir.member = #choir.member<1, init>}
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      choir.member = #choir.member<1>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]], %[[EXP]] :
// CHECK-SAME:      choir.member = #choir.member<1, epilogue>

// -----

// An elementwise chain collapses into one dispatch; a fill that is a
// result (not a reduction's init) is a dispatch of its own.

module {
  module @chain attributes {accy.kernel = "chain"} {
    func.func @chain(%x: tensor<?xf32>, %out0: tensor<?xf32> {accy.result = 0 : i64}, %out1: tensor<?xf32> {accy.result = 1 : i64}) -> (tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?xf32>
      %one = arith.constant 1.0 : f32
      %e0 = tensor.empty(%n) : tensor<?xf32>
      %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e0 : tensor<?xf32>) {
      ^bb0(%v: f32, %o: f32):
        %t = math.tanh %v : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %e1 = tensor.empty(%n) : tensor<?xf32>
      %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
      ^bb0(%v: f32, %o: f32):
        %t = arith.mulf %v, %v : f32
        linalg.yield %t : f32
      } -> tensor<?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %ones = linalg.fill ins(%one : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %b in %out0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %ones in %out1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1 : tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic
// CHECK-SAME:      choir.member = #choir.member<0>
// CHECK:           math.tanh
// CHECK-NEXT:      arith.mulf
// CHECK:         linalg.fill {choir.member = #choir.member<1>}
// CHECK-NOT:     linalg.generic

// -----

// Epilogues: the mean's division runs in the sum's dispatch and the shift
// of the mean after it (a chain of two); the scalar the division captures
// moves before the sum. One fill shared by two reductions is duplicated so
// each folds into its own root. A consumer of both reductions runs as the
// epilogue of the later one, the first point where both results exist.

module {
  module @epilogues attributes {accy.kernel = "epilogues"} {
    func.func @epilogues(%x: tensor<?x?xf32>, %out0: tensor<?xf32> {accy.result = 0 : i64}, %out1: tensor<?xf32> {accy.result = 1 : i64}, %out2: tensor<?xf32> {accy.result = 2 : i64}) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%n) : tensor<?xf32>
      %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fill : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %e1 = tensor.empty(%n) : tensor<?xf32>
      %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %q = arith.divf %a, %df : f32
        linalg.yield %q : f32
      } -> tensor<?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %shift = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%mean : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %p = arith.addf %a, %df : f32
        linalg.yield %p : f32
      } -> tensor<?xf32>
      %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fill : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.mulf %a, %a : f32
        %s = arith.addf %m, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %e3 = tensor.empty(%n) : tensor<?xf32>
      %both = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum, %sq : tensor<?xf32>, tensor<?xf32>) outs(%e3 : tensor<?xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %r = arith.subf %b, %a : f32
        linalg.yield %r : f32
      } -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %mean in %out0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %shift in %out1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r2 = bufferization.materialize_in_destination %both in %out2 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1, %r2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    }
  }
}

// CHECK-LABEL: func.func @epilogues
// CHECK:         linalg.fill {choir.member = #choir.member<0, init>}
// CHECK:         arith.sitofp
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      choir.member = #choir.member<0>
// CHECK:         %[[MEAN:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[SUM]] :
// CHECK-SAME:      choir.member = #choir.member<0, epilogue>
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MEAN]] :
// CHECK-SAME:      choir.member = #choir.member<0, epilogue>
// CHECK:           arith.addf
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:      choir.member = #choir.member<1>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[SUM]], %[[SQ]] :
// CHECK-SAME:      choir.member = #choir.member<1, epilogue>
// CHECK:           arith.subf

// -----

// cumsum: the elementwise producer (x * 2 + b) fuses into the scan, which
// reads it through a map of every loop but the axis (its kernels evaluate
// the payload once per element), and the fused generic keeps its
// `choir.scan` tag; relu of the scan runs as its epilogue. One dispatch.

#id = affine_map<(n, d) -> (n, d)>
#col = affine_map<(n, d) -> (d)>
#in = affine_map<(n, i, j) -> (n, j)>
#out = affine_map<(n, i, j) -> (n, i)>
module {
  module @cumsum attributes {accy.kernel = "cumsum"} {
    func.func @cumsum(%x: tensor<?x?xf32>, %b: tensor<?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %two = arith.constant 2.0 : f32
      %e0 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%e0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %c: f32, %o: f32):
        %m = arith.mulf %a, %two : f32
        %s = arith.addf %m, %c : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %scan = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y : tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
      ^bb0(%a: f32, %acc: f32):
        %i = linalg.index 1 : index
        %j = linalg.index 2 : index
        %in = arith.cmpi ule, %j, %i : index
        %v = arith.select %in, %a, %zero : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      %e2 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%scan : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %m = arith.maximumf %a, %zero : f32
        linalg.yield %m : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }
}

// CHECK-DAG:   #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[COL:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @cumsum
// CHECK:         linalg.fill
// CHECK-SAME:      choir.member = #choir.member<0, init>
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[COL]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?xf32>)
// CHECK-SAME:      choir.member = #choir.member<0>, choir.scan = #choir<scan_kind cumsum>
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           arith.cmpi ule
// CHECK:         linalg.generic
// CHECK-SAME:      choir.member = #choir.member<0, epilogue>
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.generic
