import { storeBackends } from "./backends.js";
import { describeStoreContract } from "./contract/harness.js";
import { STORE_CONTRACT } from "./contract/index.js";

for (const backend of storeBackends()) describeStoreContract(backend, STORE_CONTRACT);
