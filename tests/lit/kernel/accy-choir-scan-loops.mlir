// RUN: accy-opt %s --split-input-file --accy-choir-scan-loops --canonicalize -verify-diagnostics | FileCheck %s

// The host version of a scan, built from its plan (axis loop 0, masked
// loop 2, the combiner): a loop over the lines (here the columns of a
// cummax along axis 0) and, inside, a loop along the line carrying the
// running maximum; each element is read once (linear work), combined with
// the carry, and stored combined with the output's start (-inf from the
// fill).

#in = affine_map<(i, n, j) -> (j, n)>
#out = affine_map<(i, n, j) -> (i, n)>
func.func @cummax_cols(%x: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%out : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<?x?xf32>) outs(%out : memref<?x?xf32>) attrs = {choir.member = #choir.member<0>, choir.plan = #choir.plan<scan, combiner = "maximumf", scan = <axis = 0, masked = 2>, targets = {host = #choir.serial_loops}>, choir.scan = #choir<scan_kind cummax>} {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 2 : index
    %in = arith.cmpi ule, %j, %i : index
    %v = arith.select %in, %a, %ninf : f32
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  }
  return
}

// CHECK-LABEL: func.func @cummax_cols(
// CHECK-SAME:    %[[X:[^:]+]]: memref<?x?xf32>, %[[OUT:[^:]+]]: memref<?x?xf32>)
// CHECK:         %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill
// CHECK-NOT:     linalg.generic
// CHECK:         %[[COLS:.+]] = memref.dim %[[X]], %c1
// CHECK:         %[[ROWS:.+]] = memref.dim %[[OUT]], %c0
// CHECK:         scf.for %[[COL:.+]] = %c0 to %[[COLS]] step %c1 {
// CHECK-NEXT:      scf.for %[[ROW:.+]] = %c0 to %[[ROWS]] step %c1 iter_args(%[[CARRY:.+]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:        %[[E:.+]] = memref.load %[[X]][%[[ROW]], %[[COL]]]
// CHECK-NEXT:        %[[NEXT:.+]] = arith.maximumf %[[CARRY]], %[[E]]
// CHECK-NEXT:        %[[START:.+]] = memref.load %[[OUT]][%[[ROW]], %[[COL]]]
// CHECK-NEXT:        %[[V:.+]] = arith.maximumf %[[START]], %[[NEXT]]
// CHECK-NEXT:        memref.store %[[V]], %[[OUT]][%[[ROW]], %[[COL]]]
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32

// -----

// A generic without a scan plan (the tag alone) is left to
// convert-linalg-to-loops.
// CHECK-LABEL: func.func @unplanned
// CHECK:         linalg.generic
#in = affine_map<(i, j) -> (j)>
#out = affine_map<(i, j) -> (i)>
func.func @unplanned(%x: memref<?xf32>, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?xf32>) outs(%out : memref<?xf32>) attrs = {choir.scan = #choir<scan_kind cumsum>} {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %in = arith.cmpi ule, %j, %i : index
    %v = arith.select %in, %a, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A scan whose payload does not match its plan is an error, not loops
// built from the wrong combiner.
#in = affine_map<(i, j) -> (j)>
#out = affine_map<(i, j) -> (i)>
func.func @mismatch(%x: memref<?xf32>, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{the plan's combiner 'maximumf' does not yield this dispatch's result}}
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?xf32>) outs(%out : memref<?xf32>) attrs = {choir.member = #choir.member<0>, choir.plan = #choir.plan<scan, combiner = "maximumf", scan = <axis = 0, masked = 1>, targets = {host = #choir.serial_loops}>, choir.scan = #choir<scan_kind cumsum>} {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %in = arith.cmpi ule, %j, %i : index
    %v = arith.select %in, %a, %zero : f32
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}
