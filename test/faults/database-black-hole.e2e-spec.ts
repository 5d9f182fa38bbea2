import { describeDatabaseFault } from './database-fault-scenario';

describeDatabaseFault('black-hole');
