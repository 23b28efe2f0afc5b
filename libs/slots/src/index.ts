export * from './routes';
export * from './slots';
