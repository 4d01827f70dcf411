// Type-checks the Trainer declarations in web/engine/training.d.ts as the training widget
// will use them. Lines marked @ts-expect-error must really be type errors.
import type { Matrix } from '../../web/engine/engine.js';
import {
  Evaluation, HeadImportance, StepResult, Trainer, TrainingEngine, loadTrainingEngine, trainingWasmUrls,
} from '../../web/engine/training.js';

export async function load(): Promise<TrainingEngine> {
  return loadTrainingEngine({ wasm: trainingWasmUrls() });
}

export function train(engine: TrainingEngine): number {
  const trainer: Trainer = engine.createTrainer({ task: 'back-and-first', numHeads: 4 }, 7);
  try {
    const step: StepResult = trainer.step(10);
    const evaluation: Evaluation = trainer.evaluate();
    trainer.ablate([true, false, false, false]);
    trainer.ablate([[false, false, false, false]]);
    const ranking: HeadImportance[] = trainer.importance();
    const pattern: Matrix = trainer.attention(0).layers[0][1];
    const mask: boolean[] = trainer.headMask;
    // @ts-expect-error: tasks are named
    engine.createTrainer({ task: 'copy' });
    // @ts-expect-error: the mask holds booleans
    trainer.ablate([1, 0]);
    return step.loss + evaluation.outputAccuracy[0] + ranking[0].gradientScore + pattern.get(0, 0) +
      Number(mask[0]) + trainer.config.dModel + engine.defaultTrainingConfig('previous-token').steps;
  } finally {
    trainer.delete();
  }
}
