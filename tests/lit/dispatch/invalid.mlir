// RUN: accy-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(builtin.module(accy-choir-plan-schedule{targets=sm_90,tpu}))' -o /dev/null

module {
  // expected-error @+1 {{accy-choir-plan-schedule: unknown target 'tpu' (known targets: sm_80, sm_90, gfx90a, gfx942, host)}}
  module @k attributes {accy.kernel = "k"} {
    func.func @k() attributes {accy.entry} {
      return
    }
  }
}
