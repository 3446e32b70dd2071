// Publishes the API under test as the running automemo (api/running.ts), as index.js and cli/main.ts do: an
// environment module a test loads that imports `automemo` with none beside it gets this instance.
import '../../api/running.ts';
