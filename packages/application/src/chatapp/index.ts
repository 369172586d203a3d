export * from './provider-ports';
export * from './ingress-ports';
export * from './chatapp-ingress';
