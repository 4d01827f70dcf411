// The trained world's task (world_task.hpp): the grammar, the features and targets of a
// sentence, and the loss with its gradient through the core's attention layer.
#include "world_task.hpp"

#include <cmath>
#include <numeric>

namespace mha::world_task {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kFirstMeaning = kMeaning1;

template <std::size_t N>
const char* pick(Rng& rng, const char* const (&words)[N]) {
  return words[rng.below(static_cast<int>(N))];
}

const char* const kNouns[] = {"researcher", "student", "editor", "critic", "teacher", "author", "pilot"};
const char* const kObjects[] = {"paper", "book", "letter", "play", "report"};
const char* const kPronouns[] = {"it", "she", "he", "this", "nothing"};
const char* const kSaying[] = {"said", "thought", "knew", "wrote"};
const char* const kDoing[] = {"wrote", "read", "met", "liked"};
const char* const kAdjectives[] = {"wrong", "right", "late", "new"};

// Builds one random sentence's tokens, clause by clause.
class Grammar {
 public:
  explicit Grammar(Rng& rng) : rng_(rng) {}

  std::vector<Token> sentence() {
    add("The", 0);
    if (rng_.below(10) < 3) add("old", 0);
    add(pick(rng_, kNouns), 0).subject = true;
    if (rng_.below(2) == 0) relative_clause();
    saying(0, 0);
    add(".", 0);
    return tokens_;
  }
  int clauses() const { return clauses_; }

 private:
  Token& add(const char* word, int clause) {
    Token token;
    token.word = word;
    token.clause = clause;
    tokens_.push_back(token);
    return tokens_.back();
  }
  // "who V the N": a clause of its own whose subject is "who".
  void relative_clause() {
    const int c = clauses_++;
    add("who", c).subject = true;
    add(pick(rng_, kDoing), c).verb = true;
    add("the", c);
    add(pick(rng_, kObjects), c);
  }
  // A verb of saying in clause c, and the clause it opens; nested once at most.
  void saying(int c, int depth) {
    Token& verb = add(pick(rng_, kSaying), c);
    verb.verb = true;
    const int opened = verb.opens = clauses_++;
    if (rng_.below(2) == 0) {
      add(pick(rng_, kPronouns), opened).subject = true;
    } else {
      add("the", opened);
      add(pick(rng_, kNouns), opened).subject = true;
    }
    if (depth == 0 && rng_.below(10) < 3) {
      saying(opened, depth + 1);
    } else {
      add("was", opened).verb = true;
      add(pick(rng_, kAdjectives), opened);
    }
  }

  Rng& rng_;
  std::vector<Token> tokens_;
  int clauses_ = 1;
};

int subject_of(const std::vector<Token>& tokens, int clause) {
  for (std::size_t s = 0; s < tokens.size(); ++s) {
    if (tokens[s].subject && tokens[s].clause == clause) return static_cast<int>(s);
  }
  return -1;
}

// The four jobs as target attention rows (world_task.hpp).
void set_targets(Sentence& sentence) {
  const std::vector<Token>& tokens = sentence.tokens;
  const int L = sentence.length();
  for (MatrixD& target : sentence.targets) target = MatrixD::Zero(L, L);
  int actors = 0;
  for (const Token& token : tokens) actors += (token.verb || token.subject) ? 1 : 0;
  for (int t = 0; t < L; ++t) {
    const Token& token = tokens[static_cast<std::size_t>(t)];
    if (token.verb) {
      const int own = subject_of(tokens, token.clause);
      if (own >= 0) sentence.targets[0](t, own) = 1;
      const int opened = token.opens >= 0 ? subject_of(tokens, token.opens) : -1;
      if (opened >= 0) sentence.targets[1](t, opened) = 1;
    }
    if (t > 0) sentence.targets[2](t, t - 1) = 1;
    for (int s = 0; s < L; ++s) {
      const Token& other = tokens[static_cast<std::size_t>(s)];
      if (other.verb || other.subject) sentence.targets[3](t, s) = 1.0 / actors;
    }
  }
}

}  // namespace

const char* feature_name(int feature) {
  static const char* const names[kModelWidth] = {
      "verb", "subject", "clause x", "clause y", "opens x", "opens y",
      "position cos", "position sin", "bias", "meaning 1", "meaning 2", "meaning 3"};
  if (feature == -1) return "unused";  // a key column align_key_columns() dropped
  return feature >= 0 && feature < kModelWidth ? names[feature] : "?";
}

const char* head_job(int head) {
  static const char* const jobs[kHeads] = {"subject", "complement", "previous", "gist"};
  return head >= 0 && head < kHeads ? jobs[head] : "?";
}

Rng::Rng(std::uint32_t seed) : state_(seed != 0 ? seed : 0x9E3779B9u) {}

std::uint32_t Rng::next() {
  state_ ^= state_ << 13;
  state_ ^= state_ >> 17;
  state_ ^= state_ << 5;
  return state_;
}

int Rng::below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(next() >> 8) * (1.0 / 16777216.0);
}

Sentence make_sentence(std::vector<Token> tokens, const std::vector<double>& clause_angles,
                       const MatrixD& meanings) {
  Sentence sentence;
  sentence.tokens = std::move(tokens);
  sentence.clauses = static_cast<int>(clause_angles.size());
  const int L = sentence.length();
  MatrixD& x = sentence.x;
  x = MatrixD::Zero(L, kModelWidth);
  const auto code = [&clause_angles](int clause, int column) {
    const double angle = clause_angles[static_cast<std::size_t>(clause)] * kPi / 180;
    return column == 0 ? std::cos(angle) : std::sin(angle);
  };
  for (int t = 0; t < L; ++t) {
    const Token& token = sentence.tokens[static_cast<std::size_t>(t)];
    x(t, kVerb) = token.verb ? 1 : 0;
    x(t, kSubject) = token.subject ? 1 : 0;
    x(t, kClauseX) = code(token.clause, 0);
    x(t, kClauseY) = code(token.clause, 1);
    if (token.opens >= 0) {
      x(t, kOpensX) = code(token.opens, 0);
      x(t, kOpensY) = code(token.opens, 1);
    }
    x(t, kPositionCos) = std::cos(t * kPi / 6);
    x(t, kPositionSin) = std::sin(t * kPi / 6);
    x(t, kBias) = 1;
    for (int k = 0; k < 3; ++k) x(t, kFirstMeaning + k) = meanings(t, k);
  }
  set_targets(sentence);
  return sentence;
}

Sentence random_sentence(Rng& rng) {
  for (;;) {
    Grammar grammar(rng);
    std::vector<Token> tokens = grammar.sentence();
    if (static_cast<int>(tokens.size()) > kMaxWords) continue;
    // Clauses evenly spread on the circle (so codes of different clauses differ), in a
    // random order, turned by a random angle, each moved a little.
    const int n = grammar.clauses();
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    for (int i = n - 1; i > 0; --i) std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng.below(i + 1))]);
    const double turn = rng.uniform(0, 360);
    std::vector<double> angles(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) {
      angles[static_cast<std::size_t>(c)] = turn + 360.0 * order[static_cast<std::size_t>(c)] / n + rng.uniform(-15, 15);
    }
    MatrixD meanings(static_cast<Eigen::Index>(tokens.size()), 3);
    for (Eigen::Index i = 0; i < meanings.size(); ++i) meanings.data()[i] = rng.uniform(-1, 1);
    return make_sentence(std::move(tokens), angles, meanings);
  }
}

bool trainable(int row, int col) {
  if (row < 0 || row >= kMeaning1 || col < 0) return false;
  if (col < kModelWidth) return true;                    // W_Q: every row but the meanings
  if (col < 2 * kModelWidth) return row != kBias;        // W_K: nor the bias
  return false;                                          // W_V stays a copy of the meanings
}

AttentionLayerD initial_layer(std::uint32_t seed, double init_scale) {
  AttentionLayerD layer(kModelWidth, kHeads, false);
  Rng rng(seed);
  for (int r = 0; r < kModelWidth; ++r) {
    for (int c = 0; c < 2 * kModelWidth; ++c) {
      if (trainable(r, c)) layer.w_qkv(r, c) = rng.uniform(-init_scale, init_scale);
    }
  }
  for (int i = 0; i < kHeads; ++i) {
    for (int k = 0; k < kHeadWidth; ++k) layer.w_qkv(kFirstMeaning + k, 2 * kModelWidth + i * kHeadWidth + k) = 1;
  }
  layer.w_o = MatrixD::Identity(kModelWidth, kModelWidth);
  return layer;
}

int scored_rows(const Sentence& sentence, int head) {
  const MatrixD& target = sentence.targets[static_cast<std::size_t>(head)];
  int rows = 0;
  for (Eigen::Index t = 0; t < target.rows(); ++t) rows += target.row(t).sum() > 0 ? 1 : 0;
  return rows;
}

double sentence_error(AttentionLayerD& layer, const Sentence& sentence, MatrixD* grad, double scale) {
  const int L = sentence.length();
  MatrixD y;
  layer.forward(sentence.x, 1, L, y);
  const MatrixD meanings = sentence.x.middleCols(kFirstMeaning, 3);
  MatrixD dy = MatrixD::Zero(L, kModelWidth);
  double error = 0;
  for (int i = 0; i < kHeads; ++i) {
    const MatrixD& target = sentence.targets[static_cast<std::size_t>(i)];
    const MatrixD diff = y.middleCols(i * kHeadWidth, kHeadWidth) - target * meanings;
    for (int t = 0; t < L; ++t) {
      if (target.row(t).sum() <= 0) continue;
      error += diff.row(t).squaredNorm();
      dy.block(t, i * kHeadWidth, 1, kHeadWidth) = 2 * scale * diff.row(t);
    }
  }
  if (grad != nullptr) {
    MatrixD dx;
    layer.backward(dy, dx);
    for (int r = 0; r < kModelWidth; ++r) {
      for (int c = 0; c < 3 * kModelWidth; ++c) {
        if (trainable(r, c)) (*grad)(r, c) += layer.grad_w_qkv(r, c);
      }
    }
  }
  return error;
}

}  // namespace mha::world_task
