import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { describeObjectStoreConformance } from '../../conformance/object-store.conformance.js';

describeObjectStoreConformance('MemoryObjectStore', async () => ({
  store: new MemoryObjectStore(),
  cleanup: async () => {},
}));
