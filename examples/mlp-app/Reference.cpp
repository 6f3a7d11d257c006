#include "Reference.h"

#include <algorithm>
#include <cmath>

std::vector<double> layerNorm(const std::vector<float> &x, int64_t rows,
                              int64_t cols, const std::vector<float> &g,
                              const std::vector<float> &b) {
  std::vector<double> out(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c)
      mean += x[r * cols + c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c)
      var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] =
          (x[r * cols + c] - mean) / std::sqrt(var + 1e-5) * g[c] + b[c];
  }
  return out;
}

static std::vector<double> dense(const std::vector<double> &x, int64_t rows,
                                  int64_t in, const std::vector<float> &w,
                                  const std::vector<float> &b, int64_t out) {
  std::vector<double> y(rows * out);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < out; ++o) {
      double sum = b[o];
      for (int64_t i = 0; i < in; ++i)
        sum += x[r * in + i] * w[i * out + o];
      y[r * out + o] = sum;
    }
  return y;
}

void classify(const Classifier &c, std::vector<double> &probabilities,
              double &loss) {
  std::vector<double> h =
      dense(layerNorm(c.x, c.batch, c.features, c.g, c.beta), c.batch,
            c.features, c.w1, c.b1, c.hidden);
  for (double &v : h)
    v = std::max(v, 0.0);
  std::vector<double> logits = dense(h, c.batch, c.hidden, c.w2, c.b2, c.classes);
  probabilities.assign(c.batch * c.classes, 0);
  loss = 0;
  for (int64_t r = 0; r < c.batch; ++r) {
    const double *row = &logits[r * c.classes];
    double max = *std::max_element(row, row + c.classes), sum = 0;
    for (int64_t k = 0; k < c.classes; ++k)
      sum += std::exp(row[k] - max);
    for (int64_t k = 0; k < c.classes; ++k)
      probabilities[r * c.classes + k] = std::exp(row[k] - max) / sum;
    loss += max + std::log(sum) - row[c.labels[r]];
  }
  loss /= c.batch;
}
