// exp, log, tanh, rsqrt of one input (for the accuracy harness).
#id = affine_map<(i) -> (i)>
module {
  module @mathfns attributes {accy.kernel = "mathfns"} {
    func.func @mathfns(%x: tensor<?xf32>, %o0: tensor<?xf32> {accy.result = 0 : i64}, %o1: tensor<?xf32> {accy.result = 1 : i64}, %o2: tensor<?xf32> {accy.result = 2 : i64}, %o3: tensor<?xf32> {accy.result = 3 : i64}) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) attributes {accy.entry} {
      %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%o0 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %v = math.exp %a : f32
        linalg.yield %v : f32
      } -> tensor<?xf32>
      %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%o1 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %v = math.log %a : f32
        linalg.yield %v : f32
      } -> tensor<?xf32>
      %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%o2 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %v = math.tanh %a : f32
        linalg.yield %v : f32
      } -> tensor<?xf32>
      %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%o3 : tensor<?xf32>) {
      ^bb0(%a: f32, %o: f32):
        %v = math.rsqrt %a : f32
        linalg.yield %v : f32
      } -> tensor<?xf32>
      return %r0, %r1, %r2, %r3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    }
  }
}
