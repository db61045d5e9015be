// The Delivery context's public face: its module, which the assembly wires (no context imports delivery).
// What other contexts may import (.dependency-cruiser.cjs); inside delivery/, import files directly.
export { DeliveryModule } from './delivery.module';
