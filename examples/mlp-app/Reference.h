// Plain C++ (double precision) versions of the example's kernels.
#ifndef MLP_APP_REFERENCE_H
#define MLP_APP_REFERENCE_H

#include <cstdint>
#include <vector>

struct Classifier {
  int64_t batch, features, hidden, classes;
  std::vector<float> x, g, beta, w1, b1, w2, b2;
  std::vector<int32_t> labels;
};

/// Row-wise layer normalisation of x[rows, cols] with gain g and bias b.
std::vector<double> layerNorm(const std::vector<float> &x, int64_t rows,
                              int64_t cols, const std::vector<float> &g,
                              const std::vector<float> &b);

/// Class probabilities [batch, classes] and the mean cross-entropy loss.
void classify(const Classifier &c, std::vector<double> &probabilities,
              double &loss);

#endif
