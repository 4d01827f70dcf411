// One multi-head self-attention layer of the tiny transformer (training.hpp), forward and
// backward, on a batch of sequences stacked row-wise, in float (the page) or double (the
// gradient tests). The products go through Ops<T> (training_internal.hpp).
#include <cmath>
#include <limits>

#include "mha/errors.hpp"
#include "mha/message.hpp"
#include "mha/training.hpp"
#include "mha/validation.hpp"
#include "training_internal.hpp"

namespace mha {

using training_internal::block;
using training_internal::off;
using training_internal::Ops;

template <typename T>
AttentionLayerT<T>::AttentionLayerT(int d_model, int num_heads, bool causal)
    : d_model_(d_model), num_heads_(num_heads), causal_(causal) {
  require_in_range(d_model, 1, 4096, "d_model");
  require_in_range(num_heads, 1, d_model, "num_heads (h)");
  if (d_model % num_heads != 0) {
    throw InvalidArgument(message("num_heads (h): must divide d_model = ", d_model,
                                  " so that every head has the same width, got h = ", num_heads));
  }
  w_qkv = MatrixT<T>::Zero(d_model, 3 * d_model);
  w_o = MatrixT<T>::Zero(d_model, d_model);
  gates.assign(static_cast<std::size_t>(num_heads), T(1));
  grad_w_qkv = MatrixT<T>::Zero(d_model, 3 * d_model);
  grad_w_o = MatrixT<T>::Zero(d_model, d_model);
  grad_gates.assign(static_cast<std::size_t>(num_heads), T(0));
}

template <typename T>
const T* AttentionLayerT<T>::weights(int b, int head) const {
  return probs_.data() + off((b * num_heads_ + head) * seq_len_, seq_len_);
}

// Forward, for each sequence b and head i (Q_i, K_i, V_i are column blocks of QKV):
//   S   = Q_i K_i^T / sqrt(d_k)        (L x L; with the causal mask, S[t][s] = -inf, s > t)
//   P   = softmax over each row of S
//   H_i = P V_i                        (head i's output, L x d_k)
//   Concat_i = g_i H_i,   y = Concat W_O
template <typename T>
void AttentionLayerT<T>::forward(const MatrixT<T>& x, int batch, int seq_len, MatrixT<T>& y) {
  const int d = d_model_, h = num_heads_, dk = d_k(), L = seq_len, N = batch * seq_len;
  batch_ = batch;
  seq_len_ = seq_len;
  x_ = x;
  // Q, K and V for every head at once: QKV = x [W_Q | W_K | W_V], N x 3d.
  qkv_.resize(N, 3 * d);
  Ops<T>::gemm(N, 3 * d, d, x.data(), d, w_qkv.data(), 3 * d, qkv_.data(), 3 * d);

  heads_.resize(N, d);
  probs_.resize(static_cast<Eigen::Index>(batch) * h * L, L);
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  const T neg_inf = -std::numeric_limits<T>::infinity();
  MatrixT<T>& keys_t = scratch_a_;
  keys_t.resize(dk, L);
  for (int b = 0; b < batch; ++b) {
    const T* q_rows = qkv_.data() + off(b * L, 3 * d);
    for (int i = 0; i < h; ++i) {
      const T* q = q_rows + i * dk;
      const T* k = q_rows + d + i * dk;
      const T* v = q_rows + 2 * d + i * dk;
      T* p = probs_.data() + off((b * h + i) * L, L);
      // K_i^T, pre-scaled by 1 / sqrt(d_k), packed d_k x L for gemm_nn.
      keys_t = block(k, L, dk, 3 * d).transpose() * scale;
      Ops<T>::gemm(L, L, dk, q, 3 * d, keys_t.data(), L, p, L);
      if (causal_) {
        for (int t = 0; t < L; ++t)
          for (int s = t + 1; s < L; ++s) p[off(t, L) + s] = neg_inf;
      }
      Ops<T>::softmax(L, L, p, L);
      Ops<T>::gemm(L, dk, L, p, L, v, 3 * d, heads_.data() + off(b * L, d) + i * dk, d);
    }
  }
  concat_ = heads_;
  for (int i = 0; i < h; ++i) {
    if (gates[static_cast<std::size_t>(i)] != T(1))
      concat_.middleCols(i * dk, dk) *= gates[static_cast<std::size_t>(i)];
  }
  y.resize(N, d);
  Ops<T>::gemm(N, d, d, concat_.data(), d, w_o.data(), d, y.data(), d);
}

// Backward. Given dy = dL/dy (N x d), in reverse order of the forward pass:
//
// 1. y = Concat W_O, so  dL/dW_O = Concat^T dy   and   dL/dConcat = dy W_O^T.
// 2. Concat_i = g_i H_i, so  dL/dg_i = sum of H_i (.) dConcat_i (entry-wise product, summed
//    over the block), and  dL/dH_i = g_i dConcat_i. A head that is switched off (g_i = 0)
//    receives no gradient, but its gate still does: that is the importance score.
// 3. For each sequence and head, H_i = P V_i, so
//      dL/dP   = dH_i V_i^T    (L x L)     and   dL/dV_i = P^T dH_i   (L x d_k).
// 4. Softmax, row by row: P[t][s] = exp(S[t][s]) / sum_r exp(S[t][r]). Its Jacobian is
//    dP[t][s] / dS[t][r] = P[t][s] ([s == r] - P[t][r]), so
//      dS[t][r] = sum_s dP[t][s] P[t][s] ([s == r] - P[t][r])
//               = P[t][r] (dP[t][r] - sum_s P[t][s] dP[t][s]).
//    A masked entry has P = 0, hence dS = 0: the mask needs no special case.
// 5. S = Q_i K_i^T / sqrt(d_k), so with dS' = dS / sqrt(d_k):
//      dL/dQ_i = dS' K_i      and      dL/dK_i = dS'^T Q_i.
// 6. QKV = x [W_Q | W_K | W_V], so with dQKV = [dQ | dK | dV] (all heads' blocks):
//      dL/d[W_Q | W_K | W_V] = x^T dQKV    and    dL/dx = dQKV [W_Q | W_K | W_V]^T.
template <typename T>
void AttentionLayerT<T>::backward(const MatrixT<T>& dy, MatrixT<T>& dx) {
  const int d = d_model_, h = num_heads_, dk = d_k(), L = seq_len_, N = batch_ * seq_len_;
  // 1. dW_O = Concat^T dy; dConcat = dy W_O^T.
  MatrixT<T>& t_buf = scratch_a_;
  t_buf = concat_.transpose();
  grad_w_o.resize(d, d);
  Ops<T>::gemm(d, d, N, t_buf.data(), N, dy.data(), d, grad_w_o.data(), d);
  t_buf = w_o.transpose();
  d_concat_.resize(N, d);
  Ops<T>::gemm(N, d, d, dy.data(), d, t_buf.data(), d, d_concat_.data(), d);

  // 2. Gates: dL/dg_i per sequence and in total; then dH_i = g_i dConcat_i (in place).
  grad_gates_per_sequence.resize(batch_, h);
  for (int b = 0; b < batch_; ++b) {
    for (int i = 0; i < h; ++i) {
      grad_gates_per_sequence(b, i) =
          (heads_.block(b * L, i * dk, L, dk).array() * d_concat_.block(b * L, i * dk, L, dk).array()).sum();
    }
  }
  for (int i = 0; i < h; ++i) {
    grad_gates[static_cast<std::size_t>(i)] = grad_gates_per_sequence.col(i).sum();
    const T g = gates[static_cast<std::size_t>(i)];
    if (g != T(1)) d_concat_.middleCols(i * dk, dk) *= g;
  }

  // 3-5, per sequence and head. d_qkv_ receives dQ_i, dK_i, dV_i in the same column blocks
  // as Q_i, K_i, V_i in qkv_.
  d_qkv_.resize(N, 3 * d);
  const T scale = T(1) / std::sqrt(static_cast<T>(dk));
  MatrixT<T>& packed = scratch_b_;  // V_i^T, P^T or dS^T
  MatrixT<T>& d_p = scratch_c_;     // dP, then dS in place
  d_p.resize(L, L);
  for (int b = 0; b < batch_; ++b) {
    const T* rows = qkv_.data() + off(b * L, 3 * d);
    T* d_rows = d_qkv_.data() + off(b * L, 3 * d);
    for (int i = 0; i < h; ++i) {
      const T* q = rows + i * dk;
      const T* k = rows + d + i * dk;
      const T* v = rows + 2 * d + i * dk;
      const T* d_h = d_concat_.data() + off(b * L, d) + i * dk;
      const T* p = probs_.data() + off((b * h + i) * L, L);
      const auto P = block(p, L, L, L);
      // 3. dP = dH_i V_i^T;  dV_i = P^T dH_i.
      packed = block(v, L, dk, 3 * d).transpose();
      Ops<T>::gemm(L, L, dk, d_h, d, packed.data(), L, d_p.data(), L);
      packed = P.transpose();
      Ops<T>::gemm(L, dk, L, packed.data(), L, d_h, d, d_rows + 2 * d + i * dk, 3 * d);
      // 4. dS = P (.) (dP - rowsum(P (.) dP)), with 1 / sqrt(d_k) folded in (step 5).
      for (int t = 0; t < L; ++t) {
        const T* pt = p + off(t, L);
        T* dpt = d_p.data() + off(t, L);
        T dot = 0;
        for (int s = 0; s < L; ++s) dot += pt[s] * dpt[s];
        for (int s = 0; s < L; ++s) dpt[s] = pt[s] * (dpt[s] - dot) * scale;
      }
      // 5. dQ_i = dS' K_i;  dK_i = dS'^T Q_i.
      Ops<T>::gemm(L, dk, L, d_p.data(), L, k, 3 * d, d_rows + i * dk, 3 * d);
      packed = d_p.transpose();
      Ops<T>::gemm(L, dk, L, packed.data(), L, q, 3 * d, d_rows + d + i * dk, 3 * d);
    }
  }

  // 6. dW_QKV = x^T dQKV;  dx = dQKV W_QKV^T.
  t_buf = x_.transpose();
  grad_w_qkv.resize(d, 3 * d);
  Ops<T>::gemm(d, 3 * d, N, t_buf.data(), N, d_qkv_.data(), 3 * d, grad_w_qkv.data(), 3 * d);
  t_buf = w_qkv.transpose();
  dx.resize(N, d);
  Ops<T>::gemm(N, d, 3 * d, d_qkv_.data(), 3 * d, t_buf.data(), d, dx.data(), d);
}

template class AttentionLayerT<float>;
template class AttentionLayerT<double>;

}  // namespace mha
