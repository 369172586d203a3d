export { ChatappIngressController } from './chatapp-ingress-controller';
