export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_DEFINITION = Symbol('SERVICE_DEFINITION');
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
