export { ChatappIngressController, chatappIngressRouteDocs } from './chatapp-ingress-controller';
