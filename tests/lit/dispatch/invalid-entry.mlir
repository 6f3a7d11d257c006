// RUN: accy-opt %s --verify-diagnostics --accy-choir-dispatch -o /dev/null

module {
  // expected-error @+1 {{kernel module 'nameless' has no entry function (a func.func with 'accy.entry')}}
  module @nameless attributes {accy.kernel = "nameless"} {
    func.func @helper() {
      return
    }
  }
}
