export { PostgresChatappInbox } from './chatapp-inbox';
