// Representative tensor products (the input contract of the dispatch stage):
// one file, several kernels.
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
module {
  // softmax over the last axis, with the row maximum subtracted first.
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
      %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%f0 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%e1 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %s = arith.subf %a, %m : f32
        %e = math.exp %s : f32
        linalg.yield %e : f32
      } -> tensor<?x?xf32>
      %e2 = tensor.empty(%n) : tensor<?xf32>
      %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<?x?xf32>) outs(%f2 : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %e3 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%e3 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %s: f32, %o: f32):
        %q = arith.divf %a, %s : f32
        linalg.yield %q : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }

  // gelu(x * w + b) with a row-vector broadcast of w and b (tanh form).
  module @bias_gelu attributes {accy.kernel = "bias_gelu"} {
    func.func @bias_gelu(%x: tensor<?x?xf32>, %w: tensor<?xf32>, %b: tensor<?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %e0 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %y = linalg.generic {indexing_maps = [#id2, #col, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %w, %b : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e0 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %s: f32, %t: f32, %o: f32):
        %m = arith.mulf %a, %s : f32
        %p = arith.addf %m, %t : f32
        linalg.yield %p : f32
      } -> tensor<?x?xf32>
      %e1 = tensor.empty(%n, %d) : tensor<?x?xf32>
      %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<?x?xf32>) outs(%e1 : tensor<?x?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %k0 = arith.constant 0.7978845608 : f32
        %k1 = arith.constant 0.044715 : f32
        %a3 = arith.mulf %a, %a : f32
        %a3b = arith.mulf %a3, %a : f32
        %t0 = arith.mulf %a3b, %k1 : f32
        %t1 = arith.addf %a, %t0 : f32
        %t2 = arith.mulf %t1, %k0 : f32
        %th = math.tanh %t2 : f32
        %t3 = arith.addf %th, %one : f32
        %t4 = arith.mulf %a, %half : f32
        %t5 = arith.mulf %t4, %t3 : f32
        linalg.yield %t5 : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %g in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }

  // Row reductions of one input: sum, mean, max, min (four outputs).
  module @row_stats attributes {accy.kernel = "row_stats"} {
    func.func @row_stats(%x: tensor<?x?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}, %o1: tensor<?xf32> {accy.result = 1 : i64}, %o2: tensor<?xf32> {accy.result = 2 : i64}, %o3: tensor<?xf32> {accy.result = 3 : i64}) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = tensor.dim %x, %c0 : tensor<?x?xf32>
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %pinf = arith.constant 0x7F800000 : f32
      %e = tensor.empty(%n) : tensor<?xf32>
      %fz = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fz : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum : tensor<?xf32>) outs(%e : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %q = arith.divf %a, %df : f32
        linalg.yield %q : f32
      } -> tensor<?xf32>
      %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fm : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      %fn = linalg.fill ins(%pinf : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %min = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%fn : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.minimumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<?xf32>
      %r0 = bufferization.materialize_in_destination %sum in %o0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %mean in %o1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r2 = bufferization.materialize_in_destination %max in %o2 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r3 = bufferization.materialize_in_destination %min in %o3 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      return %r0, %r1, %r2, %r3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    }
  }

  // Column sums (reduction over the outer axis) and the total (0-d result).
  module @col_total attributes {accy.kernel = "col_total"} {
    func.func @col_total(%x: tensor<?x?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}, %o1: tensor<f32> {accy.result = 1 : i64}) -> (tensor<?xf32>, tensor<f32>) attributes {accy.entry} {
      %c1 = arith.constant 1 : index
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%d) : tensor<?xf32>
      %fz = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %cols = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%fz : tensor<?xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<?xf32>
      %e0 = tensor.empty() : tensor<f32>
      %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
      %total = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%f0 : tensor<f32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<f32>
      %r0 = bufferization.materialize_in_destination %cols in %o0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %r1 = bufferization.materialize_in_destination %total in %o1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
      return %r0, %r1 : tensor<?xf32>, tensor<f32>
    }
  }

  // A matrix product as a linalg.generic contraction (dynamic shapes).
  module @matmul_generic attributes {accy.kernel = "matmul_generic"} {
    func.func @matmul_generic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %out0: tensor<?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = tensor.dim %a, %c0 : tensor<?x?xf32>
      %n = tensor.dim %b, %c1 : tensor<?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
      return %res : tensor<?x?xf32>
    }
  }

  // linalg.matmul on static shapes that are not multiples of any tile,
  // followed by a bias add (an elementwise consumer of the contraction).
  module @matmul_static attributes {accy.kernel = "matmul_static"} {
    func.func @matmul_static(%a: tensor<37x29xf32>, %b: tensor<29x53xf32>, %bias: tensor<53xf32>, %out0: tensor<37x53xf32> {accy.result = 0 : i64}) -> tensor<37x53xf32> attributes {accy.entry} {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<37x53xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
      %mm = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x53xf32>) outs(%f : tensor<37x53xf32>) -> tensor<37x53xf32>
      %e1 = tensor.empty() : tensor<37x53xf32>
      %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<37x53xf32>, tensor<53xf32>) outs(%e1 : tensor<37x53xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<37x53xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
      return %res : tensor<37x53xf32>
    }
  }

  // einsum("bij,bjk->bik") with a dynamic batch.
  module @batch_einsum attributes {accy.kernel = "batch_einsum"} {
    func.func @batch_einsum(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %out0: tensor<?x?x?xf32> {accy.result = 0 : i64}) -> tensor<?x?x?xf32> attributes {accy.entry} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %bs = tensor.dim %a, %c0 : tensor<?x?x?xf32>
      %m = tensor.dim %a, %c1 : tensor<?x?x?xf32>
      %n = tensor.dim %b, %c2 : tensor<?x?x?xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty(%bs, %m, %n) : tensor<?x?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
      %r = linalg.batch_matmul ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%f : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
      return %res : tensor<?x?x?xf32>
    }
  }

  // softmax on a static 7x300 input.
  module @softmax_static attributes {accy.kernel = "softmax_static"} {
    func.func @softmax_static(%x: tensor<7x300xf32>, %out0: tensor<7x300xf32> {accy.result = 0 : i64}) -> tensor<7x300xf32> attributes {accy.entry} {
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %e0 = tensor.empty() : tensor<7xf32>
      %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<7xf32>) -> tensor<7xf32>
      %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<7x300xf32>) outs(%f0 : tensor<7xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %m = arith.maximumf %a, %acc : f32
        linalg.yield %m : f32
      } -> tensor<7xf32>
      %e1 = tensor.empty() : tensor<7x300xf32>
      %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<7x300xf32>, tensor<7xf32>) outs(%e1 : tensor<7x300xf32>) {
      ^bb0(%a: f32, %m: f32, %o: f32):
        %s = arith.subf %a, %m : f32
        %e = math.exp %s : f32
        linalg.yield %e : f32
      } -> tensor<7x300xf32>
      %e2 = tensor.empty() : tensor<7xf32>
      %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7xf32>) -> tensor<7xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<7x300xf32>) outs(%f2 : tensor<7xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
      } -> tensor<7xf32>
      %e3 = tensor.empty() : tensor<7x300xf32>
      %r = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<7x300xf32>, tensor<7xf32>) outs(%e3 : tensor<7x300xf32>) {
      ^bb0(%a: f32, %s: f32, %o: f32):
        %q = arith.divf %a, %s : f32
        linalg.yield %q : f32
      } -> tensor<7x300xf32>
      %res = bufferization.materialize_in_destination %r in %out0 : (tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32>
      return %res : tensor<7x300xf32>
    }
  }
}
