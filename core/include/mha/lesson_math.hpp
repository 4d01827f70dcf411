// Small computations the lesson's widgets show beside the forward pass. They live in the
// core so that every number on the page comes from the same C++ code, validated the same
// way (InvalidArgument naming the bad argument).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mha/limits.hpp"

namespace mha {

// cos(a, b) = a.b / (|a| |b|), in double. A zero vector has no direction: the result is 0.
double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b);

// softmax of one row of scores, through the active softmax kernel. -infinity entries are
// masked (weight 0); NaN and +infinity are rejected; an all-masked row gives all zeros.
std::vector<float> softmax(const std::vector<float>& scores);

// For each row r of an rows x cols matrix: (row_r . u) / |u|, the length of row r along the
// direction u. This is what a later layer that reads direction u hears from each row
// (e.g. from each head's contribution head_i W_O^i). u must not be the zero vector.
std::vector<float> component_along(const std::vector<float>& matrix, int rows, int cols,
                                   const std::vector<float>& u);

// "Can the blend be undone?" Given value vectors V (L x d, one per row) and attention weights
// w (L, non-negative, summing to 1 within 1e-4), finds the weights w' (also non-negative,
// with the same sum) with the same output w'^T V = w^T V that differ most from w: the most
// weight moved, sum_s |w'_s - w_s| / 2.
//
// The weightings with w's output form a polytope; the weight moved is convex, so its largest
// value is at a corner, and when the corners are few enough (C(L, m) bases, m = rank of
// [V^T; 1^T]: 330 for the lesson's blend) every one is visited: `exhaustive` is true, and
// then `found` false means that w is the only weighting with this output. Otherwise a walk
// finds some alternative (not necessarily the farthest) and `exhaustive` is false.
//
// The answer is checked as returned: `found` is true only if every w'_s is finite and
// non-negative, the sums agree, and each output component differs by at most 1e-5 of
// sum_s (w_s + w'_s) |V_sj| (the magnitude it is made of). Otherwise found is false and
// nothing is claimed; no field is ever NaN.
struct AlternativeWeights {
  bool found = false;             // false when w is the only such weighting, or none was verified
  bool exhaustive = false;        // every corner was visited: weights are the farthest, and
                                  // !found means w is the only weighting with this output
  std::vector<float> weights;     // w' (empty when !found)
  std::vector<float> output;      // w^T V (d values)
  std::vector<float> alternative_output;  // w'^T V (d values; empty when !found)
  double max_output_difference = 0;        // max_j |(w'^T V)_j - (w^T V)_j|
  double total_weight_moved = 0;           // sum_s |w'_s - w_s| / 2, in [0, 1]
};
AlternativeWeights find_alternative_weights(const std::vector<float>& values, int rows, int cols,
                                            const std::vector<float>& weights);

// rows x cols values drawn uniformly from [-scale, scale) by xorshift32 from `seed`: the
// same numbers on every platform, so lesson data can name a seed instead of a table.
// Rows up to kMaxSeededRows (an input X or a weight matrix), cols up to kMaxModelWidth.
inline constexpr int kMaxSeededRows = kMaxSeqLen > kMaxModelWidth ? kMaxSeqLen : kMaxModelWidth;
std::vector<float> seeded_matrix(int rows, int cols, std::uint32_t seed, float scale);

// The stream seeded_matrix() reads row after row: seeded_matrix(r, c, seed, scale) is
// seeded_values(r * c, seed, scale). MultiHeadAttention::randomize() draws its four
// d_model x d_model matrices from one stream, so up to kMaxSeededValues values.
inline constexpr std::size_t kMaxSeededValues =
    4 * static_cast<std::size_t>(kMaxModelWidth) * static_cast<std::size_t>(kMaxModelWidth);
std::vector<float> seeded_values(std::size_t count, std::uint32_t seed, float scale);

}  // namespace mha
