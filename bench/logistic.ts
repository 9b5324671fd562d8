/**
 * L2-regularised logistic regression by full-batch gradient descent, with per-example weights: small
 * enough to read, deterministic (no random start), and all a judge of a few dozen features needs.
 *
 * @module
 */

export interface Example {
  readonly x: readonly number[];
  /** 1 or 0. */
  readonly y: number;
  /** How much the example counts in the loss (a hard negative may count more). Default 1. */
  readonly weight?: number;
}

export interface LogisticModel {
  readonly bias: number;
  readonly weights: readonly number[];
}

/**
 * @example
 * const model = fitLogistic([{ x: [1, 0], y: 1 }, { x: [0, 1], y: 0 }], { l2: 0.1 });
 * predict(model, [1, 0]); // => close to 1
 */
export function fitLogistic(
  examples: readonly Example[],
  options: { readonly l2: number; readonly iterations?: number; readonly rate?: number },
): LogisticModel {
  const dimension = examples[0]?.x.length ?? 0;
  const weights = new Array<number>(dimension).fill(0);
  let bias = 0;
  const iterations = options.iterations ?? 3000;
  const rate = options.rate ?? 0.5;
  const total = examples.reduce((sum, example) => sum + (example.weight ?? 1), 0);
  for (let step = 0; step < iterations; step++) {
    const gradient = new Array<number>(dimension).fill(0);
    let gradientBias = 0;
    for (const example of examples) {
      const error = (predict({ bias, weights }, example.x) - example.y) * (example.weight ?? 1);
      gradientBias += error;
      for (let i = 0; i < dimension; i++)
        gradient[i] = (gradient[i] as number) + error * (example.x[i] as number);
    }
    bias -= (rate * gradientBias) / total;
    for (let i = 0; i < dimension; i++) {
      weights[i] =
        (weights[i] as number) -
        rate * ((gradient[i] as number) / total + options.l2 * (weights[i] as number));
    }
  }
  return { bias, weights };
}

export function predict(model: LogisticModel, x: readonly number[]): number {
  let logit = model.bias;
  for (let i = 0; i < x.length; i++) logit += (model.weights[i] ?? 0) * (x[i] as number);
  return 1 / (1 + Math.exp(-logit));
}
