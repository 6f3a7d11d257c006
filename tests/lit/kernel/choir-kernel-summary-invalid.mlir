// RUN: accy-opt %s --split-input-file --verify-diagnostics

// The verifier of the kernel summary, one message per rule. An element
// that fails its own verifier also fails the parse of what holds it.

// expected-error @+1 {{'choir.kernels' must be #choir.kernel_summary}}
module attributes {choir.kernels = {targets = {}}} {}

// -----

// expected-error @+1 {{'targets.sm_90' must be an array}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = 1}>} {}

// -----

// expected-error @+1 {{every element of 'targets.sm_90' must be #choir.kernel_launch, not "k0"}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = ["k0"]}>} {}

// -----

// expected-error @+1 {{the grid of 'k0' is not over the summary's 1 symbols}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [array<i64: 0, 0>], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = elementwise, block = [256, 1, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = []>]}>} {}

// -----

// expected-error @+2 {{block must be three positive sizes (x, y, z)}}
// expected-error @+1 {{failed to parse Choir_KernelSummaryAttr parameter 'targets'}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = elementwise, block = [256, 0, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = []>]}>} {}

// -----

// expected-error @+2 {{'grid' must be an affine map of 3 result(s) over symbols only}}
// expected-error @+1 {{failed to parse Choir_KernelSummaryAttr parameter 'targets'}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = elementwise, block = [256, 1, 1], grid = affine_map<() -> (1, 1)>, shared_memory = 0, arguments = []>]}>} {}

// -----

// expected-error @+2 {{'when' holds affine maps over symbols only (each a conjunction of results >= 0)}}
// expected-error @+1 {{failed to parse Choir_KernelSummaryAttr parameter 'targets'}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = elementwise, block = [256, 1, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = [], when = [affine_map<(d0) -> (d0)>]>]}>} {}

// -----

// expected-error @+2 {{every element of 'arguments' must be #choir.kernel_operand, not 0 : i64}}
// expected-error @+1 {{failed to parse Choir_KernelSummaryAttr parameter 'targets'}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = elementwise, block = [256, 1, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = [0]>]}>} {}

// -----

// expected-error @+1 {{expected argument, buffer, index or scalar}}
module attributes {choir.kernels = #choir.kernel_operand<constant 1>} {}

// -----

// expected-error @+1 {{an index operand is an affine map alone}}
module attributes {choir.kernels = #choir.kernel_operand<index 4 : i64>} {}

// -----

// expected-error @+1 {{a scalar operand is an integer or float constant alone}}
module attributes {choir.kernels = #choir.kernel_operand<scalar "one">} {}

// -----

// expected-error @+2 {{a tensor-core launch records tile and mma (three sizes each) and stages, together}}
// expected-error @+1 {{failed to parse Choir_KernelSummaryAttr parameter 'targets'}}
module attributes {choir.kernels = #choir.kernel_summary<symbols = [], targets = {sm_90 = [#choir.kernel_launch<name = "k0", dispatch = 0, schedule = tiled_contraction, block = [32, 8, 1], grid = affine_map<() -> (1, 1, 1)>, shared_memory = 0, arguments = [], mma = [16, 8, 16], stages = 2>]}>} {}
