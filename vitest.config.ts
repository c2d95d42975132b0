import { defineConfig } from 'vitest/config';

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/stacks/**/*.test.ts', 'test/contracts/**/*.test.ts'],
          env,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          env,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'aws',
          include: ['test/aws-wire/**/*.test.ts'],
          exclude: ['test/aws-wire/deployed-stack.test.ts'],
          env,
          globalSetup: ['test/aws-wire/setup/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The synthesized stack deployed to moto (cdk.out from `npm run synth`). It starts its own
        // moto, so it needs no Java; `npm run test:aws` runs it after the aws project.
        test: {
          name: 'deployed',
          include: ['test/aws-wire/deployed-stack.test.ts'],
          env,
          testTimeout: 900_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
