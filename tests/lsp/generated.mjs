// Generated documents of many kernels, for the tests and bench/lsp: each
// kernel is 20 lines of softmax, layer norm and MLP shapes, and differs
// from the others in its relu scale (`relu(s) * N.5`).
export function kernelFile(count) {
  const lines = [`// Generated: ${count} kernels, ${count * 20} lines.`];
  for (let i = 0; i < count; ++i) {
    lines.push(
      `kernel k${i}(x: f32[B, 256], w: f32[256, 128], g: f32[128],`,
      `         b: f32[128]) -> f32[B, 128] {`,
      `  // layer ${i}: projection, normalization, activation`,
      `  let h = einsum("bi,ij->bj", x, w);`,
      `  let mu = mean(h, axis=1, keepdims=true);`,
      `  let d = h - mu;`,
      `  let var = mean(d * d, axis=1, keepdims=true);`,
      `  let n = d * rsqrt(var + 0.00001);`,
      `  let s = n * g + b;`,
      `  let m = max(s, axis=1, keepdims=true);`,
      `  let e = exp(s - m);`,
      `  let p = e / sum(e, axis=1, keepdims=true);`,
      `  let r = relu(s) * ${(i % 7) + 1}.5;`,
      `  let t = tanh(r);`,
      `  let u = gelu(t + p);`,
      `  let v = u * sigmoid(u);`,
      `  let o = v + p * 0.25;`,
      `  return o;`,
      `}`,
      ``);
  }
  lines.pop();
  return lines.join('\n') + '\n';
}
