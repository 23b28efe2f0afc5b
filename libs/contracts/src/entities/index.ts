export * from './common';
export * from './country';
export * from './currency';
export * from './client';
export * from './wallet';
export * from './user';
