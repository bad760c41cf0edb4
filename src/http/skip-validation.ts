/**
 * A validatorCompiler for routes whose schemas document the request but whose own validator checks it
 * (to answer with the spec's codes, or because a JSON-schema pass over 250 000 boxes is too slow).
 */
export const skipSchemaValidation = () => () => true;
