// RUN: accy-opt %s --split-input-file --verify-diagnostics

// The verifier of the memory plan, one message per rule. An element that
// fails its own verifier also fails the parse of the plan holding it.

// expected-error @+1 {{'choir.memory' must be #choir.memory_plan}}
module attributes {choir.memory = {buffers = []}} {}

// -----

// expected-error @+2 {{an output argument names the result it holds, and only an output does}}
// expected-error @+1 {{failed to parse Choir_MemoryPlanAttr parameter 'arguments'}}
module attributes {choir.memory = #choir.memory_plan<arguments = [#choir.entry_argument<index = 0, role = output, alignment = 16, space = global>], buffers = [], symbols = []>} {}

// -----

// expected-error @+2 {{alignment 12 is not a positive power of two}}
// expected-error @+1 {{failed to parse Choir_MemoryPlanAttr parameter 'arguments'}}
module attributes {choir.memory = #choir.memory_plan<arguments = [#choir.entry_argument<index = 0, role = input, alignment = 12, space = global>], buffers = [], symbols = []>} {}

// -----

// expected-error @+1 {{argument 0 of the plan has index 1}}
module attributes {choir.memory = #choir.memory_plan<arguments = [#choir.entry_argument<index = 1, role = input, alignment = 16, space = global>], buffers = [], symbols = []>} {}

// -----

// expected-error @+1 {{every element of 'buffers' must be #choir.buffer, not 3 : i64}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [3], symbols = []>} {}

// -----

// expected-error @+1 {{buffer 0 of the plan has id 1; ids are 0..n-1 in order}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [#choir.buffer<id = 1, element = f32, shape = affine_map<() -> (4)>, bytes = affine_map<() -> (16)>, alignment = 64, live = [0, 0], reuses = 0, space = global>], symbols = []>} {}

// -----

// expected-error @+1 {{the maps of buffer 0 are not over the plan's 1 symbols}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [#choir.buffer<id = 0, element = f32, shape = affine_map<() -> (4)>, bytes = affine_map<() -> (16)>, alignment = 64, live = [0, 0], reuses = 0, space = global>], symbols = [array<i64: 0, 0>]>} {}

// -----

// expected-error @+2 {{'bytes' must be an affine map of 1 result(s) over symbols only}}
// expected-error @+1 {{failed to parse Choir_MemoryPlanAttr parameter 'buffers'}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [#choir.buffer<id = 0, element = f32, shape = affine_map<() -> (4)>, bytes = affine_map<() -> (4, 4)>, alignment = 64, live = [0, 0], reuses = 0, space = global>], symbols = []>} {}

// -----

// expected-error @+2 {{'live' must be the first and the last dispatch, in order}}
// expected-error @+1 {{failed to parse Choir_MemoryPlanAttr parameter 'buffers'}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [#choir.buffer<id = 0, element = f32, shape = affine_map<() -> (4)>, bytes = affine_map<() -> (16)>, alignment = 64, live = [2, 1], reuses = 0, space = global>], symbols = []>} {}

// -----

// expected-error @+1 {{a symbol must be array<i64: argument, dimension> of non-negative integers, not array<i64: 0>}}
module attributes {choir.memory = #choir.memory_plan<arguments = [], buffers = [], symbols = [array<i64: 0>]>} {}
