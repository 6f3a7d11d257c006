// RUN: accy-opt %s --verify-diagnostics --accy-choir-dispatch="targets=sm_90" --accy-choir-memory --accy-choir-kernel --accy-choir-target="targets=sm_90,gfx942" -o /dev/null

// The target stage can only emit code for targets the dispatch stage
// planned.

module {
  // expected-error @+1 {{kernel 'copy' has no code for target 'gfx942'; plan it in the dispatch stage (targets=...)}}
  module @copy attributes {accy.kernel = "copy"} {
    func.func @copy(%x: tensor<8xf32>, %out0: tensor<8xf32> {accy.result = 0 : i64}) -> tensor<8xf32> attributes {accy.entry} {
      %r = bufferization.materialize_in_destination %x in %out0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      return %r : tensor<8xf32>
    }
  }
}
