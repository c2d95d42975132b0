import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { describeWatchConformance } from '../../conformance/watch.conformance.js';

describeWatchConformance('MemoryObjectStore', async () => ({ store: new MemoryObjectStore(), cleanup: async () => {} }));
